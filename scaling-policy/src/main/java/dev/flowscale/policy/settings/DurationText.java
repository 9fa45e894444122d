package dev.flowscale.policy.settings;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The autoscaler settings' duration grammar: a whole number and a unit, {@code ms}, {@code s},
 * {@code m} or {@code h} (500ms, 30s, 5m, 1h). Whole numbers keep the text a CRD pattern can check
 * and the value exact; the upper bound keeps every value representable.
 */
public final class DurationText {

    /** The grammar as a regular expression, for CRD validation. */
    public static final String PATTERN = "^[0-9]{1,9}(ms|s|m|h)$";
    private static final Pattern FORMAT = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

    private DurationText() {
    }

    /** The duration, or an exception naming the field and the accepted form. */
    public static Duration parse(String field, String text) {
        Matcher m = text == null ? null : FORMAT.matcher(text.trim());
        if (m == null || !m.matches()) {
            throw new PolicyException(field + " is '" + text + "': write a whole number (at most 9 digits) and a"
                    + " unit ms, s, m or h, e.g. 30s");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** The shortest text of the grammar for a duration of whole milliseconds. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
