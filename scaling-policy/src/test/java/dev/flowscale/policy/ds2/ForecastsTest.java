package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.flowscale.policy.model.RateSample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForecastsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aGapLeftByBlockedDecisionsIsFilledLinearlyOnTheWindowGridEndingAtTheLatestSample() {
        List<RateSample> samples =
                List.of(
                        new RateSample(T0, 100),
                        new RateSample(T0.plusSeconds(30), 200),
                        new RateSample(T0.plusSeconds(150), 500));

        List<RateSample> even = Forecasts.resampled(samples, Duration.ofSeconds(30));

        assertThat(even)
                .extracting(RateSample::at)
                .containsExactly(
                        T0,
                        T0.plusSeconds(30),
                        T0.plusSeconds(60),
                        T0.plusSeconds(90),
                        T0.plusSeconds(120),
                        T0.plusSeconds(150));
        assertThat(even)
                .extracting(RateSample::rate)
                .containsExactly(100.0, 200.0, 275.0, 350.0, 425.0, 500.0);
    }

    @Test
    void samplesOffTheGridAreInterpolatedAtGridTimesCountedBackFromTheLatest() {
        List<RateSample> samples =
                List.of(new RateSample(T0, 0), new RateSample(T0.plusSeconds(70), 70));

        List<RateSample> even = Forecasts.resampled(samples, Duration.ofSeconds(30));

        assertThat(even)
                .extracting(RateSample::at)
                .containsExactly(T0.plusSeconds(10), T0.plusSeconds(40), T0.plusSeconds(70));
        assertThat(even.get(0).rate()).isCloseTo(10, offset(1e-9));
    }

    @Test
    void aSourceSizedForAForecastRecordsItsOfferedRateAsTargetTimesOneMinusItsShare() {
        SourceTarget t = new SourceTarget(1500, 1000, 0, 3000, 10, false);

        assertThat(t.total() * (1 - t.catchUpShare())).isCloseTo(1000, offset(1e-9));
    }
}
