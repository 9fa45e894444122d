package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsed {@code --name value} options, checked against the names a command knows; shared by the
 * engine's runner command and the flowscale command. Errors name the option and the fix.
 */
public final class CliOptions {
    /** The longest duration any option takes: a year, far beyond any run, far below an overflow. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12}(?:\\.\\d{1,9})?)(ms|s|m|h)?");
    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * Parses {@code --name value}, {@code --name=value} and flags; a value may not itself look
     * like an option, so a forgotten value is blamed on the option that lacks it.
     */
    public static CliOptions parse(List<String> args, Set<String> valued, Set<String> flags) {
        CliOptions options = new CliOptions();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new InvalidJobException("unexpected argument '" + arg + "'"
                        + (i > 0 ? " after " + args.get(i - 1) : "") + "; options start with --");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            if (flags.contains(name)) {
                if (eq >= 0) {
                    throw new InvalidJobException("option --" + name + " is a flag and takes no value; write --" + name);
                }
                options.values.put(name, "true");
            } else if (valued.contains(name)) {
                options.values.put(name, eq >= 0 ? arg.substring(eq + 1) : valueAt(args, ++i, name));
            } else {
                throw new InvalidJobException("unknown option --" + name + "; --help lists the options");
            }
        }
        return options;
    }

    private static String valueAt(List<String> args, int i, String name) {
        if (i >= args.size()) {
            throw new InvalidJobException("option --" + name + " needs a value");
        }
        if (args.get(i).startsWith("--")) {
            throw new InvalidJobException("option --" + name + " needs a value before " + args.get(i));
        }
        return args.get(i);
    }

    /** The options as given, in order (a repeated option keeps its last value). */
    public Map<String, String> given() {
        return java.util.Collections.unmodifiableMap(values);
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    /** A whole number of at least {@code min} (and at most {@link Integer#MAX_VALUE}). */
    public int integer(String name, int fallback, int min) {
        return integer(name, fallback, min, Integer.MAX_VALUE);
    }

    /** A whole number in [min, max]; the error names the option and the range. */
    public int integer(String name, int fallback, int min, int max) {
        String raw = values.get(name);
        if (raw == null) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new InvalidJobException("option --" + name + " '" + raw + "' is not a whole number; use one from "
                    + min + " to " + max);
        }
        if (value < min || value > max) {
            throw new InvalidJobException("option --" + name + " is " + value + "; use a whole number from " + min
                    + " to " + max);
        }
        return (int) value;
    }

    public double decimal(String name, double fallback, double min, double max) {
        String raw = values.get(name);
        if (raw == null) {
            return fallback;
        }
        try {
            double value = Double.parseDouble(raw.trim());
            if (!(value >= min && value <= max)) {
                throw new InvalidJobException("option --" + name + " is " + value + "; use a number in [" + min + ", " + max + "]");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidJobException("option --" + name + " '" + raw + "' is not a number; use one in [" + min + ", "
                    + max + "]");
        }
    }

    /** A duration from 0 to {@link #MAX_DURATION}. */
    public Duration duration(String name, Duration fallback) {
        return duration(name, fallback, Duration.ZERO);
    }

    /** A duration from {@code min} to {@link #MAX_DURATION}; the error names the option and the range. */
    public Duration duration(String name, Duration fallback, Duration min) {
        String raw = values.get(name);
        if (raw == null) {
            return fallback;
        }
        Duration value = parseDuration("option --" + name, raw);
        if (value.compareTo(min) < 0) {
            throw new InvalidJobException("option --" + name + " is " + raw.trim() + "; use at least " + format(min));
        }
        return value;
    }

    /**
     * "500ms", "30s", "2m", "1.5h"; a bare number means seconds. From 0 to {@link #MAX_DURATION},
     * so that adding it to a clock reading can never overflow.
     */
    public static Duration parseDuration(String field, String raw) {
        Matcher m = DURATION.matcher(raw.trim().toLowerCase(java.util.Locale.ROOT));
        if (!m.matches()) {
            throw new InvalidJobException(field + " '" + raw + "' is not a duration; use a number with a unit ms, s, m"
                    + " or h from 0 to " + format(MAX_DURATION) + ", e.g. 500ms, 30s, 2m");
        }
        long millisPerUnit = switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> 1;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 1_000;
        };
        BigDecimal millis = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(millisPerUnit));
        if (millis.compareTo(BigDecimal.valueOf(MAX_DURATION.toMillis())) > 0) {
            throw new InvalidJobException(field + " '" + raw + "' is too long; use at most " + format(MAX_DURATION));
        }
        return Duration.ofMillis(millis.setScale(0, RoundingMode.HALF_UP).longValueExact());
    }

    private static String format(Duration d) {
        return d.toMillis() % 3_600_000 == 0 && !d.isZero() ? d.toHours() + "h"
                : d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** "a=1,b=2" into an ordered map. */
    public Map<String, String> assignments(String name) {
        Map<String, String> result = new LinkedHashMap<>();
        String raw = values.get(name);
        if (raw == null || raw.isBlank()) {
            return result;
        }
        for (String part : raw.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new InvalidJobException("option --" + name + " part '" + part + "' is not operator=value; use e.g. --"
                        + name + " split=2,count=4");
            }
            result.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
        }
        return result;
    }
}
