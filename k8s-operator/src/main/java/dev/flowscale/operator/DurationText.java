package dev.flowscale.operator;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the spec writes them: a whole number and a unit, ms, s, m or h (30s, 5m). */
final class DurationText {
    private static final Pattern FORMAT = Pattern.compile("([0-9]+)(ms|s|m|h)");

    private DurationText() {
    }

    /** The duration, or an exception naming the field and the expected format. */
    static Duration parse(String field, String text) {
        Matcher m = text == null ? null : FORMAT.matcher(text.trim());
        if (m == null || !m.matches()) {
            throw new OperatorException(field + " is '" + text + "': write a whole number and a unit ms, s, m or h,"
                    + " e.g. 30s");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
