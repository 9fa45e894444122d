package dev.flowscale.engine.job;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.source.RateProfile;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A user job's own options, {@code --name value} on the runner's command line. Each read checks the
 * value and names the option in its error; options the job never read are refused after {@link
 * StreamingJob#build}, so a typo fails the run instead of being ignored.
 */
public final class JobArguments {
    private final Map<String, String> values;
    private final Set<String> read = new TreeSet<>();

    private JobArguments(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * Arguments from option names (without {@code --}) to their values; a flag's value is {@code
     * true}.
     */
    public static JobArguments of(Map<String, String> values) {
        return new JobArguments(values);
    }

    public boolean has(String name) {
        read.add(name);
        return values.containsKey(name);
    }

    public String text(String name, String fallback) {
        read.add(name);
        return values.getOrDefault(name, fallback);
    }

    /** A value that must be given: the error says which option is missing. */
    public String required(String name) {
        String value = text(name, null);
        if (value == null || value.isBlank()) {
            throw new InvalidJobException(
                    "option --" + name + " is required; give --" + name + " <value>");
        }
        return value;
    }

    /** A flag: true when given (without a value, or as {@code --name=true}). */
    public boolean flag(String name) {
        String value = text(name, "false");
        if (!value.equals("true") && !value.equals("false")) {
            throw new InvalidJobException(
                    "option --"
                            + name
                            + " is a flag; write --"
                            + name
                            + " or --"
                            + name
                            + "=false");
        }
        return value.equals("true");
    }

    /** A whole number in [min, max]. */
    public long integer(String name, long fallback, long min, long max) {
        return number(name, fallback, min, max, Long::valueOf, "a whole number");
    }

    /** A number in [min, max]. */
    public double decimal(String name, double fallback, double min, double max) {
        return number(name, fallback, min, max, Double::valueOf, "a number");
    }

    private <T extends Comparable<T>> T number(
            String name, T fallback, T min, T max, Function<String, T> parse, String what) {
        String raw = text(name, null);
        if (raw == null) {
            return fallback;
        }
        try {
            T value = parse.apply(raw.trim());
            if (value.compareTo(min) >= 0 && value.compareTo(max) <= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // the message below says what a value must be
        }
        throw new InvalidJobException(
                "option --"
                        + name
                        + " is '"
                        + raw
                        + "'; use "
                        + what
                        + " from "
                        + min
                        + " to "
                        + max);
    }

    /**
     * A source rate as the built-in jobs take it: {@code max} (null: as fast as the job goes),
     * {@code 1000}, {@code steps:0s=1000,30s=3000}, {@code sine:...}, {@code trace:FILE}.
     */
    public RateProfile rate(String name, String fallback) {
        String spec = text(name, fallback);
        if (spec.equals("max")) {
            return null;
        }
        try {
            return RateProfile.parse(spec);
        } catch (EngineException e) {
            throw new InvalidJobException("option --" + name + " " + spec + ": " + e.getMessage());
        }
    }

    /** Options given but never read: unknown to the job. */
    public Set<String> unread() {
        Set<String> unread = new TreeSet<>(values.keySet());
        unread.removeAll(read);
        return unread;
    }

    /** The options the job read so far (given or not), for an error that lists them. */
    public Set<String> known() {
        return Collections.unmodifiableSet(read);
    }
}
