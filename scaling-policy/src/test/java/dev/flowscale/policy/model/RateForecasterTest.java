package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RateForecasterTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final double HOUR = 3600;

    /**
     * {@code n} samples every {@code step} seconds of {@code rate(t)} plus Gaussian noise of {@code
     * noise}·rate.
     */
    private static List<RateSample> trace(
            int n, long step, DoubleUnaryOperator rate, double noise, long seed) {
        Random random = new Random(seed);
        List<RateSample> samples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double r = rate.applyAsDouble(i * step);
            samples.add(
                    new RateSample(
                            T0.plusSeconds(i * step),
                            Math.max(0, r + noise * r * random.nextGaussian())));
        }
        return samples;
    }

    /** Root mean square of forecast − truth every {@code step} s over (from, from + span]. */
    private static double rmsError(
            RateForecast f, DoubleUnaryOperator truth, long from, long span, long step) {
        double sum = 0;
        int n = 0;
        for (long t = from + step; t <= from + span; t += step) {
            double e = f.at(T0.plusSeconds(t)) - truth.applyAsDouble(t);
            sum += e * e;
            n++;
        }
        return Math.sqrt(sum / n);
    }

    private static double sine(double t) {
        return 1000 + 300 * Math.sin(2 * Math.PI * t / 600);
    }

    /**
     * Night 500 rec/s, a day peak of 1,500 at noon (sin² between 06:00 and 18:00), growing 50 rec/s
     * a day.
     */
    private static double daily(double t) {
        double h = (t / HOUR) % 24;
        double day = h > 6 && h < 18 ? Math.pow(Math.sin(Math.PI * (h - 6) / 12), 2) : 0;
        return 500 + 1000 * day + 50 * t / (24 * HOUR);
    }

    @Test
    void tracksASineWithinAThirdOfItsNoiseFreeAmplitude() {
        // 6 periods of 600 s every 10 s, noise 2 % (about 20 rec/s).
        RateForecast f =
                RateForecaster.fit(
                        trace(360, 10, RateForecasterTest::sine, 0.02, 7), Optional.empty());

        assertThat(f.period())
                .hasValueSatisfying(p -> assertThat(p.toSeconds()).isBetween(594L, 606L));
        long last = 359 * 10;
        assertThat(rmsError(f, RateForecasterTest::sine, last, 600, 10)).isLessThan(15);
        // The next 60 s rise from sine(3590) = 968.6 to sine(3650) = 1,150.
        assertThat(f.maxOver(T0.plusSeconds(last), Duration.ofSeconds(60)))
                .isCloseTo(sine(last + 60), offset(15.0));
    }

    @Test
    void tracksADailyPatternWithTrendWithinFivePercent() {
        // 4 days every 5 minutes, noise 3 %.
        long step = 300;
        int n = 4 * 288;
        RateForecast f =
                RateForecaster.fit(
                        trace(n, step, RateForecasterTest::daily, 0.03, 11), Optional.empty());

        assertThat(f.period())
                .hasValueSatisfying(
                        p -> assertThat(p.toMinutes()).isBetween(24 * 60L - 15, 24 * 60L + 15));
        long last = (n - 1) * step;
        // Over the next 12 hours (the morning ramp and the noon peak), against a mean near 1,000
        // rec/s; the
        // last sample is at 23:55 of day 4, so the 13 h maximum is the noon peak: 1,500 + 50 · 4.5
        // days = 1,725.
        assertThat(rmsError(f, RateForecasterTest::daily, last, 12 * 3600, step)).isLessThan(50);
        assertThat(f.maxOver(T0.plusSeconds(last), Duration.ofHours(13)))
                .isCloseTo(daily(last + 12 * 3600 + step), offset(75.0));
    }

    @Test
    void usesAConfiguredPeriodOnceThreeCyclesWereSeen() {
        // 181 samples every 10 s span 1,800 s: three cycles of 600 s; 100 samples span less than
        // two.
        RateForecast f =
                RateForecaster.fit(
                        trace(181, 10, RateForecasterTest::sine, 0.02, 3),
                        Optional.of(Duration.ofSeconds(600)));

        assertThat(f.period()).hasValue(Duration.ofSeconds(600));
        assertThat(rmsError(f, RateForecasterTest::sine, 1800, 600, 10)).isLessThan(15);
        assertThat(
                        RateForecaster.fit(
                                        trace(100, 10, RateForecasterTest::sine, 0.02, 3),
                                        Optional.of(Duration.ofSeconds(600)))
                                .period())
                .isEmpty();
    }

    @ParameterizedTest(name = "step after {0} of 240 samples")
    @ValueSource(ints = {60, 120, 180, 220})
    void takesAStepForAStepNotForACycle(int at) {
        List<RateSample> samples = trace(240, 10, t -> t < at * 10 ? 1000 : 2000, 0.02, at);

        RateForecast f = RateForecaster.fit(samples, Optional.empty());

        assertThat(f.period()).isEmpty();
        assertThat(f.explanation()).startsWith("trend forecast");
        assertThat(f.maxOver(samples.get(239).at(), Duration.ofSeconds(60)))
                .isCloseTo(2000, offset(100.0));
    }

    @Test
    void neverFindsAPeriodInNoisyStepsOverFiftySeeds() {
        int falsePeriods = 0;
        for (long seed = 0; seed < 50; seed++) {
            for (int at : new int[] {60, 120, 180, 220}) {
                int stepAt = at;
                List<RateSample> samples =
                        trace(240, 10, t -> t < stepAt * 10 ? 1000 : 2000, 0.02, seed);
                falsePeriods +=
                        RateForecaster.fit(samples, Optional.empty()).period().isPresent() ? 1 : 0;
            }
        }
        assertThat(falsePeriods).isZero();
    }

    @Test
    void followsALevelAndTrendWithHoltSmoothing() {
        // A noise-free ramp of 2 rec/s every 10 s: Holt converges to level = last value, trend =
        // 0.2 rec/s per s.
        RateForecast f =
                RateForecaster.fit(trace(200, 10, t -> 100 + 0.2 * t, 0, 1), Optional.empty());

        assertThat(f.at(T0.plusSeconds(1990))).isCloseTo(498, offset(0.5));
        assertThat(f.maxOver(T0.plusSeconds(1990), Duration.ofSeconds(100)))
                .isCloseTo(518, offset(0.5));
    }

    @Test
    void refusesToForecastWithoutSamplesOrOutOfOrder() {
        assertThatThrownBy(() -> RateForecaster.fit(List.of(), Optional.empty()))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("RateHistory");
        assertThatThrownBy(
                        () ->
                                RateHistory.empty(3)
                                        .append(new RateSample(T0, 1))
                                        .append(new RateSample(T0, 2)))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("time order");
    }

    @Test
    void keepsTheLatestSamplesUpToItsCapacity() {
        RateHistory h = RateHistory.empty(2);
        for (int i = 0; i < 3; i++) {
            h = h.append(new RateSample(T0.plusSeconds(i), i));
        }

        assertThat(h.samples()).extracting(RateSample::rate).containsExactly(1.0, 2.0);
    }
}
