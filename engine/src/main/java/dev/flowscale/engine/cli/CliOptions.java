package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parsed {@code --name value} options, checked against the names a command knows; shared by the
 * engine's runner command and the flowscale command. Errors name the option and the fix.
 */
public final class CliOptions {
    private final Map<String, String> values = new LinkedHashMap<>();

    public static CliOptions parse(List<String> args, Set<String> valued, Set<String> flags) {
        CliOptions options = new CliOptions();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new InvalidJobException("unexpected argument '" + arg + "'; options start with --");
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flags.contains(name) && value == null) {
                options.values.put(name, "true");
            } else if (valued.contains(name)) {
                if (value == null && i + 1 >= args.size()) {
                    throw new InvalidJobException("option --" + name + " needs a value");
                }
                options.values.put(name, value != null ? value : args.get(++i));
            } else {
                throw new InvalidJobException("unknown option --" + name);
            }
        }
        return options;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public int integer(String name, int fallback, int min) {
        String raw = values.get(name);
        if (raw == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value < min) {
                throw new InvalidJobException("option --" + name + " is " + value + "; use at least " + min);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidJobException("option --" + name + " '" + raw + "' is not a whole number");
        }
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
            throw new InvalidJobException("option --" + name + " '" + raw + "' is not a number");
        }
    }

    public Duration duration(String name, Duration fallback) {
        String raw = values.get(name);
        return raw == null ? fallback : parseDuration("--" + name, raw);
    }

    /** "500ms", "30s", "2m", "1h"; a bare number means seconds. */
    public static Duration parseDuration(String field, String raw) {
        String s = raw.trim().toLowerCase();
        try {
            if (s.endsWith("ms")) {
                return nonNegative(Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2))));
            }
            char last = s.charAt(s.length() - 1);
            long unit = switch (last) {
                case 'h' -> 3600;
                case 'm' -> 60;
                case 's' -> 1;
                default -> Character.isDigit(last) ? 1 : -1;
            };
            String digits = Character.isLetter(last) ? s.substring(0, s.length() - 1) : s;
            if (unit < 0) {
                throw new NumberFormatException();
            }
            return nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(digits) * unit * 1000)));
        } catch (RuntimeException e) {
            throw new InvalidJobException(field + " '" + raw + "' is not a duration; use e.g. 500ms, 30s, 2m");
        }
    }

    private static Duration nonNegative(Duration d) {
        if (d.isNegative()) {
            throw new NumberFormatException();
        }
        return d;
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
