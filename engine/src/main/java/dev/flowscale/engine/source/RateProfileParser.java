package dev.flowscale.engine.source;

import dev.flowscale.common.DurationText;
import dev.flowscale.engine.api.EngineException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The command-line syntax of rate profiles; see {@link RateProfile#parse}. */
final class RateProfileParser {

    static final String VALID_FORMS =
            "valid kinds: constant (e.g. '1000' or 'constant:1000'), "
                    + "steps (e.g. 'steps:0s=1000,30s=3000,60s=500'), "
                    + "sine (e.g. 'sine:base=1000,amplitude=500,period=60s'), "
                    + "trace (e.g. 'trace:/path/rates.csv')";

    private RateProfileParser() {}

    static RateProfile parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new EngineException("rate spec must not be empty; " + VALID_FORMS);
        }
        String text = spec.strip();
        int colon = text.indexOf(':');
        if (colon < 0) {
            return RateProfile.constant(number("rate", text, spec));
        }
        String kind = text.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        String body = text.substring(colon + 1).strip();
        switch (kind) {
            case "constant":
                return RateProfile.constant(number("rate", body, spec));
            case "steps":
                return RateProfile.steps(steps(body, spec));
            case "sine":
                return sine(body, spec);
            case "trace":
                return RateProfile.trace(path(body, spec));
            default:
                throw new EngineException(
                        "unknown rate kind '" + kind + "' in '" + spec + "'; " + VALID_FORMS);
        }
    }

    private static List<RateProfile.Step> steps(String body, String spec) {
        List<RateProfile.Step> steps = new ArrayList<>();
        for (String item : body.split(",", -1)) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new EngineException(
                        "step '"
                                + item.strip()
                                + "' in '"
                                + spec
                                + "' must look like TIME=RATE, e.g. 30s=3000; "
                                + VALID_FORMS);
            }
            double at = seconds("step time", item.substring(0, eq), spec);
            steps.add(new RateProfile.Step(at, number("step rate", item.substring(eq + 1), spec)));
        }
        return steps;
    }

    private static RateProfile sine(String body, String spec) {
        Map<String, String> fields = new HashMap<>();
        for (String item : body.split(",", -1)) {
            int eq = item.indexOf('=');
            String key =
                    eq < 0 ? item.strip() : item.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            if (eq < 0
                    || !Set.of("base", "amplitude", "period").contains(key)
                    || fields.containsKey(key)) {
                throw new EngineException(
                        "sine field '"
                                + item.strip()
                                + "' in '"
                                + spec
                                + "' is not one of base=RATE, amplitude=RATE, period=DURATION (each once); "
                                + VALID_FORMS);
            }
            fields.put(key, item.substring(eq + 1));
        }
        if (fields.size() != 3) {
            throw new EngineException(
                    "sine spec '"
                            + spec
                            + "' must set base, amplitude and period; "
                            + "e.g. sine:base=1000,amplitude=500,period=60s");
        }
        return RateProfile.sine(
                number("sine base", fields.get("base"), spec),
                number("sine amplitude", fields.get("amplitude"), spec),
                seconds("sine period", fields.get("period"), spec));
    }

    private static Path path(String body, String spec) {
        try {
            return Path.of(body);
        } catch (InvalidPathException e) {
            throw new EngineException(
                    "trace path '"
                            + body
                            + "' in '"
                            + spec
                            + "' is not a valid path: "
                            + e.getMessage()
                            + "; e.g. trace:/path/rates.csv",
                    e);
        }
    }

    private static double number(String field, String text, String spec) {
        try {
            return RateMath.parseDecimal(text);
        } catch (NumberFormatException e) {
            throw new EngineException(
                    field
                            + " '"
                            + text.strip()
                            + "' in '"
                            + spec
                            + "' is not a number; write records/s as a plain decimal, e.g. 1000",
                    e);
        }
    }

    /** A duration in seconds, in flowscale's one grammar ({@link DurationText}: 250ms, 30s, 2m). */
    static double seconds(String field, String text, String spec) {
        return DurationText.parse(field + " in '" + spec + "'", text, EngineException::new)
                        .toNanos()
                / 1e9;
    }
}
