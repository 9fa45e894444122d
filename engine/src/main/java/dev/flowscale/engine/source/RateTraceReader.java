package dev.flowscale.engine.source;

import dev.flowscale.engine.api.EngineException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads a rate trace file into a piecewise-constant profile; see {@link RateProfile#trace}. */
final class RateTraceReader {

    private RateTraceReader() {}

    static RateProfile read(Path file) {
        List<String> lines = readLines(file);
        double[] times = new double[lines.size()];
        double[] rates = new double[lines.size()];
        int points = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                readPoint(file + " line " + (n + 1), line, times, rates, points++);
            }
        }
        if (points == 0) {
            throw new EngineException(
                    file
                            + ": the trace holds no 'time,rate' points; add at least one, e.g. 0,1000");
        }
        return new PiecewiseConstantRate(
                Arrays.copyOf(times, points),
                Arrays.copyOf(rates, points),
                "trace " + file + " (" + points + " points)");
    }

    private static void readPoint(
            String where, String line, double[] times, double[] rates, int i) {
        String[] fields = line.split(",", -1);
        if (fields.length != 2) {
            throw new EngineException(
                    where
                            + ": expected 'time,rate' (seconds, records/s) but found '"
                            + line
                            + "'; write one point per line, e.g. 30,1500");
        }
        times[i] = number(where, "time", fields[0]);
        rates[i] = number(where, "rate", fields[1]);
        checkPoint(where, times, rates, i);
    }

    private static List<String> readLines(Path file) {
        if (file == null) {
            throw new EngineException("trace file must be given; e.g. trace:/path/rates.csv");
        }
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new EngineException(
                    "cannot read trace file "
                            + file
                            + ": "
                            + e
                            + "; check the path and its permissions",
                    e);
        }
    }

    private static double number(String where, String field, String text) {
        try {
            return RateMath.parseDecimal(text);
        } catch (NumberFormatException e) {
            throw new EngineException(
                    where
                            + ": "
                            + field
                            + " '"
                            + text.strip()
                            + "' is not a number; write plain decimals, e.g. 30,1500",
                    e);
        }
    }

    private static void checkPoint(String where, double[] times, double[] rates, int i) {
        if (!Double.isFinite(times[i]) || times[i] < 0) {
            throw new EngineException(
                    where + ": time must be finite and >= 0 seconds but was " + times[i]);
        }
        if (!Double.isFinite(rates[i]) || rates[i] < 0) {
            throw new EngineException(
                    where + ": rate must be finite and >= 0 records/s but was " + rates[i]);
        }
        if (i > 0 && times[i] <= times[i - 1]) {
            throw new EngineException(
                    where
                            + ": time "
                            + RateMath.format(times[i])
                            + " is not after the previous point's "
                            + RateMath.format(times[i - 1])
                            + "; times must be strictly increasing");
        }
    }
}
