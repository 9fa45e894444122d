package dev.flowscale.policy.ds2;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Fixed-point text for reasons written once per operator on every decision, the same as {@code
 * String.format(Locale.ROOT, "%.Nf", value)} without parsing a format each time: on a graph of
 * 10,000 operators the formatter was a third of a decision's time. The digits are the shortest that
 * identify the double ({@link Double#toString}), rounded half up to the given places, which is what
 * the JDK's formatter does; values it prints in its own way (negative, not finite) are handed to
 * it.
 */
final class Decimals {

    private Decimals() {}

    /** Appends {@code value} with {@code places} digits after the point. */
    static StringBuilder fixed(StringBuilder to, double value, int places) {
        if (!(value >= 0) || Double.isInfinite(value) || value == 0 && 1 / value < 0) {
            return to.append(String.format(Locale.ROOT, "%." + places + "f", value));
        }
        return to.append(
                new BigDecimal(Double.toString(value))
                        .setScale(places, RoundingMode.HALF_UP)
                        .toPlainString());
    }
}
