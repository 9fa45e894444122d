package dev.flowscale.common;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of flowscale, used by every option, setting and spec that takes a
 * duration: a number (at most 9 digits, optionally with up to 9 decimals) and a unit {@code ns},
 * {@code us} (or {@code µs}), {@code ms}, {@code s}, {@code m} or {@code h}: 500ns, 200us, 0.5ms,
 * 30s, 5m, 1.5h. The unit is required, so that "30" is never read as the wrong unit. Values are
 * whole nanoseconds (rounded half up) and at most 999,999,999 hours, so every value is
 * representable; a caller that adds one to a clock reading bounds it further.
 */
public final class DurationText {

    /** What the grammar accepts, for error messages. */
    public static final String FORM =
            "a number and a unit ns, us, ms, s, m or h, e.g. 30s, 500ms, 1.5m or 200us";

    /**
     * The grammar as an anchored regular expression for a schema's {@code pattern} (a CRD's
     * duration fields): exactly the texts {@link #parse} accepts, units in either case, blanks
     * around allowed. Its syntax is common to Java, RE2 (the Kubernetes API server) and ECMAScript.
     */
    public static final String SCHEMA_PATTERN =
            "^\\s*[0-9]{1,9}(\\.[0-9]{1,9})?([nN][sS]|[uU][sS]|µ[sS]|[mM][sS]|[sS]|[mM]|[hH])\\s*$";

    private static final Pattern FORMAT =
            Pattern.compile("([0-9]{1,9}(?:\\.[0-9]{1,9})?)(ns|us|µs|ms|s|m|h)");

    private DurationText() {}

    /**
     * The duration, or an {@link IllegalArgumentException} naming the field and the accepted form.
     *
     * @param field what the text was given as, e.g. {@code --duration} or {@code
     *     spec.autoscaler.warmUp}
     */
    public static Duration parse(String field, String text) {
        return parse(field, text, IllegalArgumentException::new);
    }

    /**
     * The duration, or the exception {@code failure} makes of a message naming the field and the
     * accepted form: each module fails with its own exception type.
     */
    public static <E extends RuntimeException> Duration parse(
            String field, String text, Function<String, E> failure) {
        Matcher m = text == null ? null : FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (m == null || !m.matches()) {
            throw failure.apply(field + " is '" + text + "': write " + FORM);
        }
        BigDecimal nanos =
                new BigDecimal(m.group(1))
                        .multiply(BigDecimal.valueOf(nanosPer(m.group(2))))
                        .setScale(0, RoundingMode.HALF_UP);
        BigDecimal[] secondsAndNanos = nanos.divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
        return Duration.ofSeconds(
                secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValueExact());
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
    }

    /**
     * The shortest exact text of the grammar for a duration (a whole number and the largest unit
     * that divides it).
     */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        String[] units = {"h", "m", "s", "ms", "us"};
        long[] sizes = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        long seconds = d.getSeconds();
        for (int i = 0; i < 3; i++) {
            long perUnit = sizes[i] / 1_000_000_000L;
            if (d.getNano() == 0 && seconds % perUnit == 0) {
                return seconds / perUnit + units[i];
            }
        }
        long nanos = d.toNanos();
        for (int i = 3; i < units.length; i++) {
            if (nanos % sizes[i] == 0) {
                return nanos / sizes[i] + units[i];
            }
        }
        return nanos + "ns";
    }
}
