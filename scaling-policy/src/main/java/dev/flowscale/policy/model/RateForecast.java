package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A source rate forecast: what the rate will be at a future instant. Either a periodic fit ({@link
 * Harmonic}) or, when no period is found, a level and trend ({@link Trend}).
 */
public sealed interface RateForecast permits RateForecast.Harmonic, RateForecast.Trend {

    /** Forecast rate at {@code t}, never below 0. */
    double at(Instant t);

    /** The fitted period, when the rate was found periodic. */
    Optional<Duration> period();

    /** One sentence saying what was fitted. */
    String explanation();

    /**
     * Spacing of the samples the forecast was fitted on; {@link #maxOver} evaluates at this step.
     */
    Duration step();

    /**
     * The highest forecast rate in (from, from + horizon], evaluated every {@link #step()} and at
     * the horizon's end. The horizon is the time until the next decision can take effect: policy
     * interval plus rescale downtime.
     */
    default double maxOver(Instant from, Duration horizon) {
        Checks.notNull(from, "forecast start");
        if (Checks.notNegative(horizon, "forecast horizon").isZero()) {
            throw new PolicyException(
                    "forecast horizon is zero; use the policy interval plus the rescale downtime");
        }
        Instant end = from.plus(horizon);
        double max = at(end);
        for (Instant t = from.plus(step()); t.isBefore(end); t = t.plus(step())) {
            max = Math.max(max, at(t));
        }
        return max;
    }

    /**
     * rate(t) = b0 + b1·t + Σ_k (s_k·sin(2πk·t/P) + c_k·cos(2πk·t/P)), t in seconds since {@code
     * origin}.
     *
     * @param coefficients b0, b1, then s_1, c_1, s_2, c_2, ...
     */
    record Harmonic(
            Instant origin,
            Duration periodLength,
            List<Double> coefficients,
            Duration step,
            String explanation)
            implements RateForecast {

        public Harmonic {
            Checks.notNull(origin, "harmonic forecast origin");
            Checks.notNull(periodLength, "harmonic forecast period");
            coefficients =
                    List.copyOf(Checks.notNull(coefficients, "harmonic forecast coefficients"));
            if (coefficients.size() < 4
                    || coefficients.size() % 2 != 0
                    || periodLength.isNegative()
                    || periodLength.isZero()) {
                throw new PolicyException(
                        "harmonic forecast has "
                                + coefficients.size()
                                + " coefficients and period "
                                + periodLength
                                + "; pass b0, b1 and a sin and cos coefficient per harmonic, and a positive"
                                + " period");
            }
        }

        @Override
        public double at(Instant t) {
            double x = Duration.between(origin, t).toNanos() / 1e9;
            double[] row =
                    HarmonicRegression.row(
                            x, periodLength.toNanos() / 1e9, (coefficients.size() - 2) / 2);
            double y = coefficients.get(0);
            for (int i = 0; i < row.length; i++) {
                y += coefficients.get(i + 1) * row[i];
            }
            return Math.max(0, y);
        }

        @Override
        public Optional<Duration> period() {
            return Optional.of(periodLength);
        }
    }

    /** Holt's linear smoothing: rate(t) = level + trend per second × (t − last). */
    record Trend(
            Instant last, double level, double trendPerSecond, Duration step, String explanation)
            implements RateForecast {

        @Override
        public double at(Instant t) {
            return Math.max(0, level + trendPerSecond * Duration.between(last, t).toNanos() / 1e9);
        }

        @Override
        public Optional<Duration> period() {
            return Optional.empty();
        }
    }
}
