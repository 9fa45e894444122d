package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Parsed {@code --name value} options, checked against the names a command knows. */
final class CliOptions {
    private final Map<String, String> values = new LinkedHashMap<>();

    static CliOptions parse(List<String> args, Set<String> valued, Set<String> flags) {
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
                if (value == null) {
                    if (i + 1 >= args.size()) {
                        throw new InvalidJobException("option --" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                options.values.put(name, value);
            } else {
                throw new InvalidJobException("unknown option --" + name);
            }
        }
        return options;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    int integer(String name, int fallback, int min) {
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

    Duration duration(String name, Duration fallback) {
        String raw = values.get(name);
        return raw == null ? fallback : parseDuration("--" + name, raw);
    }

    /** "500ms", "30s", "2m", "1h"; a bare number means seconds. */
    static Duration parseDuration(String field, String raw) {
        String s = raw.trim().toLowerCase();
        try {
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            }
            long unit = s.endsWith("h") ? 3600 : s.endsWith("m") ? 60 : 1;
            String digits = Character.isLetter(s.charAt(s.length() - 1)) ? s.substring(0, s.length() - 1) : s;
            Duration d = Duration.ofMillis(Math.round(Double.parseDouble(digits) * unit * 1000));
            if (d.isNegative() || (!s.endsWith("s") && !s.endsWith("m") && !s.endsWith("h") && unit != 1)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (RuntimeException e) {
            throw new InvalidJobException(field + " '" + raw + "' is not a duration; use e.g. 500ms, 30s, 2m");
        }
    }

    /** "a=1,b=2" into an ordered map; values are kept as strings. */
    Map<String, String> assignments(String name) {
        Map<String, String> result = new LinkedHashMap<>();
        String raw = values.get(name);
        if (raw == null || raw.isBlank()) {
            return result;
        }
        for (String part : raw.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new InvalidJobException("option --" + name + " part '" + part
                        + "' is not operator=value; use e.g. --" + name + " split=2,count=4");
            }
            result.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
        }
        return result;
    }
}
