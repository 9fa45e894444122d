package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.DailyForecastTest.dailyLog;
import static dev.flowscale.policy.ds2.DailyForecastTest.rate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.model.RateForecast;
import dev.flowscale.policy.sim.TableDefaults;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Predictive mode with a periodic forecast: the fit is shifted onto the offered rate measured now,
 * so only its rise counts, and a trim whose forecast does not rise within the savings horizon does
 * not wait for the scale-down delay. The daily load is {@link DailyForecastTest#rate}: 1,000 ± 600
 * rec/s, highest at 12:00, rising at 07:00 and falling at 18:00.
 */
class ShiftedForecastTest {

    private static final PolicyConfig REACTIVE = TableDefaults.policy();
    private static final PolicyConfig PREDICTIVE = REACTIVE.toBuilder().predictive(true).build();
    private static final JobTopology JOB = Fixtures.topology(List.of("src:1", "op:20"), "src->op");
    private static final Instant RISING = Instant.parse("2026-01-05T07:00:00Z");
    private static final Instant FALLING = Instant.parse("2026-01-05T18:00:00Z");

    /** The same cosine as the daily load, fitted exactly. */
    private static final RateForecast FIT =
            new RateForecast.Harmonic(
                    Instant.parse("2026-01-01T00:00:00Z"),
                    Duration.ofDays(1),
                    List.of(1000.0, 0.0, 0.0, -600.0),
                    Duration.ofMinutes(3),
                    "test fit");

    private static final ForecastHorizons HORIZONS =
            new ForecastHorizons(
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(285),
                    Duration.ofSeconds(360),
                    Duration.ofHours(1));

    @Test
    void aFitAboveTheOfferedRateCountsOnlyItsRiseAboveItsOwnValueNow() {
        double offered = FIT.at(RISING) - 100;

        AnchoredForecast a = AnchoredForecast.of(FIT, offered, RISING, HORIZONS);

        double rise = FIT.at(RISING.plusSeconds(285)) - FIT.at(RISING);
        assertThat(a.lift()).isCloseTo(-100, within(1e-9));
        assertThat(a.check()).isCloseTo(offered + rise, within(1.0));
        assertThat(a.rises()).isTrue();
    }

    @Test
    void aFitThatFallsThroughoutTheSavingsHorizonStaysBelowTheOfferedRate() {
        double offered = FIT.at(FALLING) - 100;

        AnchoredForecast a = AnchoredForecast.of(FIT, offered, FALLING, HORIZONS);

        // the sources are sized for the offered rate: the higher of it and the forecast
        assertThat(a.check()).isLessThan(offered);
        assertThat(a.plan()).isLessThan(offered);
        assertThat(a.rises()).isFalse();
    }

    @Test
    void onAFallingDayATrimIsTakenAtOnceWhereReactiveWaitsForTheScaleDownDelay() {
        ScalingDecision predictive = decide(PREDICTIVE, FALLING);
        ScalingDecision reactive = decide(REACTIVE, FALLING);

        assertThat(predictive.isScale()).isTrue();
        assertThat(predictive.operators().get("op").newParallelism()).isLessThan(20);
        assertThat(predictive.reasons()).anyMatch(r -> r.endsWith("need not wait for the delay"));
        assertThat(reactive.isBlocked(BlockReason.SCALE_DOWN_DELAYED)).isTrue();
    }

    @Test
    void whereTheForecastRisesWithinTheSavingsHorizonATrimStillWaitsForTheDelay() {
        ScalingDecision predictive = decide(PREDICTIVE, RISING);

        assertThat(predictive.isBlocked(BlockReason.SCALE_DOWN_DELAYED)).isTrue();
        assertThat(predictive.reasons()).noneMatch(r -> r.endsWith("need not wait for the delay"));
    }

    /**
     * "op" runs 20 instances of 100 rec/s for a source offering the daily rate with no backlog:
     * about twice what it needs, a trim candidate with no decision before it.
     */
    private static ScalingDecision decide(PolicyConfig config, Instant now) {
        double offered = rate(now);
        MetricsWindow window =
                MetricsWindow.of(
                        now.minusSeconds(30),
                        now,
                        List.of(
                                Fixtures.source("src", 1, 5000, offered, 0),
                                OperatorMetrics.of("op", 20, 2000, 2000, offered, offered)));
        ScalingHistory history = new ScalingHistory(List.of(), List.of(), dailyLog(now, 4));
        return new Ds2Policy(config, Fixtures.clockAt(now)).decide(JOB, window, history);
    }
}
