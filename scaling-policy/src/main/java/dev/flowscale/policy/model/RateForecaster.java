package dev.flowscale.policy.model;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Checks;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Fits a forecast of a source's rate to its recent samples (taken about evenly, once per policy
 * interval). With a period, configured or detected by autocorrelation ({@link HarmonicRegression}),
 * the rate is a linear trend plus {@value #MAX_HARMONICS} harmonics of it (more for a long period
 * sampled finely, up to {@value #MAX_DETAILED_HARMONICS}: a day's pattern has a lunch dip), fitted
 * by ordinary least squares and kept only if it explains at least {@value #MIN_R_SQUARED} of the
 * variance. Otherwise it is Holt's linear smoothing (level α = {@value #ALPHA}, trend β = {@value
 * #BETA}), which follows a step within a few samples. A configured period needs {@value
 * HarmonicRegression#MIN_CYCLES} cycles of samples to be fitted.
 */
public final class RateForecaster {

    static final int MAX_HARMONICS = 4;
    static final int MAX_DETAILED_HARMONICS = 12;

    /** Samples per cycle of the highest harmonic above {@value #MAX_HARMONICS} harmonics. */
    static final int SAMPLES_PER_HARMONIC = 40;

    static final double MIN_R_SQUARED = 0.5;
    static final double ALPHA = 0.5;
    static final double BETA = 0.2;

    private RateForecaster() {}

    public static RateForecast fit(RateHistory history, Optional<Duration> configuredPeriod) {
        return fit(Checks.notNull(history, "rate history").samples(), configuredPeriod);
    }

    /** The forecast of {@code samples} (oldest first, at least one). */
    public static RateForecast fit(List<RateSample> samples, Optional<Duration> configuredPeriod) {
        if (samples == null || samples.isEmpty()) {
            throw new PolicyException(
                    "cannot forecast a source's rate without samples; append the offered rate of"
                            + " every metrics window to its RateHistory");
        }
        Checks.notNull(configuredPeriod, "configured period (use Optional.empty() to detect it)");
        Duration step = medianSpacing(samples);
        double[] t = new double[samples.size()];
        double[] y = new double[samples.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = Duration.between(samples.get(0).at(), samples.get(i).at()).toNanos() / 1e9;
            y[i] = samples.get(i).rate();
        }
        Optional<Double> period = period(t, y, step, configuredPeriod);
        if (period.isEmpty()) {
            return holt(samples, y, step, "no period found");
        }
        return harmonic(samples.get(0).at(), t, y, period.get(), step, samples);
    }

    private static Optional<Double> period(
            double[] t, double[] y, Duration step, Optional<Duration> configured) {
        if (t.length < 4 * HarmonicRegression.MIN_CYCLES) {
            return Optional.empty();
        }
        if (configured.isPresent()) {
            double p = configured.get().toNanos() / 1e9;
            return t[t.length - 1] >= HarmonicRegression.MIN_CYCLES * p - 1e-9
                    ? Optional.of(p)
                    : Optional.empty();
        }
        return HarmonicRegression.detectPeriod(y).map(lag -> lag * step.toNanos() / 1e9);
    }

    private static RateForecast harmonic(
            Instant origin,
            double[] t,
            double[] y,
            double period,
            Duration step,
            List<RateSample> samples) {
        double samplesPerPeriod = period / (step.toNanos() / 1e9);
        int most =
                (int)
                        Math.max(
                                MAX_HARMONICS,
                                Math.min(
                                        MAX_DETAILED_HARMONICS,
                                        samplesPerPeriod / SAMPLES_PER_HARMONIC));
        int harmonics =
                (int)
                        Math.max(
                                1,
                                Math.min(most, Math.min(samplesPerPeriod / 4, (y.length - 2) / 4)));
        HarmonicRegression.Fit fit = HarmonicRegression.fit(t, y, period, harmonics);
        if (fit.rSquared() < MIN_R_SQUARED) {
            return holt(
                    samples,
                    y,
                    step,
                    String.format(
                            Locale.ROOT,
                            "a period of %s explained only %.0f %% of the variance",
                            format(period),
                            100 * fit.rSquared()));
        }
        Duration p = Duration.ofNanos(Math.round(period * 1e9));
        return new RateForecast.Harmonic(
                origin,
                p,
                Arrays.stream(fit.coefficients()).boxed().toList(),
                step,
                String.format(
                        Locale.ROOT,
                        "periodic forecast: period %s, trend %+.4f rec/s per s, %d harmonics,"
                                + " R² %.2f over %d samples",
                        format(period),
                        fit.coefficients()[1],
                        harmonics,
                        fit.rSquared(),
                        y.length));
    }

    private static RateForecast holt(
            List<RateSample> samples, double[] y, Duration step, String why) {
        double level = y[0];
        double trend = 0;
        for (int i = 1; i < y.length; i++) {
            double previous = level;
            level = ALPHA * y[i] + (1 - ALPHA) * (level + trend);
            trend = BETA * (level - previous) + (1 - BETA) * trend;
        }
        double perSecond = trend / (step.toNanos() / 1e9);
        return new RateForecast.Trend(
                samples.get(samples.size() - 1).at(),
                level,
                perSecond,
                step,
                String.format(
                        Locale.ROOT,
                        "trend forecast (%s): level %.1f rec/s, trend %+.4f rec/s per s over %d"
                                + " samples",
                        why,
                        level,
                        perSecond,
                        y.length));
    }

    /** Median gap between consecutive samples; one second for a single sample. */
    private static Duration medianSpacing(List<RateSample> samples) {
        if (samples.size() < 2) {
            return Duration.ofSeconds(1);
        }
        long[] gaps = new long[samples.size() - 1];
        for (int i = 1; i < samples.size(); i++) {
            gaps[i - 1] = Duration.between(samples.get(i - 1).at(), samples.get(i).at()).toNanos();
            if (gaps[i - 1] <= 0) {
                throw new PolicyException(
                        "rate samples "
                                + (i - 1)
                                + " and "
                                + i
                                + " are not in time order; sort"
                                + " them oldest first with distinct times");
            }
        }
        Arrays.sort(gaps);
        return Duration.ofNanos(gaps[gaps.length / 2]);
    }

    private static String format(double seconds) {
        return seconds >= 3600
                ? String.format(Locale.ROOT, "%.2f h", seconds / 3600)
                : String.format(Locale.ROOT, "%.0f s", seconds);
    }
}
