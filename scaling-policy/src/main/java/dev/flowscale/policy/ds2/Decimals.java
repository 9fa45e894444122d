package dev.flowscale.policy.ds2;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
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
        String shortest = Double.toString(value);
        if (shortest.indexOf('E') >= 0) {
            return to.append(
                    new BigDecimal(shortest)
                            .setScale(places, RoundingMode.HALF_UP)
                            .toPlainString());
        }
        return rounded(to, shortest, places);
    }

    /**
     * Appends the plain decimal {@code shortest} ("123.456") rounded half up to {@code places}, as
     * {@code BigDecimal.setScale(places, HALF_UP).toPlainString()} writes it without building one:
     * the first digit dropped decides, and a carry runs left through the nines.
     */
    private static StringBuilder rounded(StringBuilder to, String shortest, int places) {
        int point = shortest.indexOf('.');
        int end = Math.min(shortest.length(), point + 1 + places);
        char[] digits = new char[point + places];
        Arrays.fill(digits, '0');
        shortest.getChars(0, point, digits, 0);
        shortest.getChars(point + 1, end, digits, point);
        boolean carry = end < shortest.length() && shortest.charAt(end) >= '5';
        for (int k = digits.length - 1; carry && k >= 0; k--) {
            carry = digits[k] == '9';
            digits[k] = carry ? '0' : (char) (digits[k] + 1);
        }
        if (carry) {
            to.append('1');
        }
        to.append(digits, 0, point);
        return places == 0 ? to : to.append('.').append(digits, point, places);
    }
}
