package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.START;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cost-aware catch-up: a rescale when needed, planned for its own downtime once; trims that pay.
 */
class CatchUpTest {

    private static final PolicyConfig CATCH_UP =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofSeconds(600))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .build();

    private static ScalingDecision decide(
            PolicyConfig config, int p, double rate, double backlog, ScalingHistory h) {
        return new Ds2Policy(config, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:" + p), "src->op"),
                        window(source("src", 1, 100_000, rate, backlog), op("op", p, 100.0 * p, 0)),
                        h);
    }

    private static RescaleRecord rescale(long startedSecondsAgo, long seconds, String path) {
        return RescaleRecord.started(START.minusSeconds(startedSecondsAgo), Map.of(), path)
                .finishedAt(START.minusSeconds(startedSecondsAgo - seconds), false);
    }

    @Test
    void plansTheBacklogOwedAndTheDowntimeOfTheNeededRescaleOnce() {
        ScalingDecision d = decide(CATCH_UP, 10, 1000, 60_000, ScalingHistory.empty());

        // (60,000 owed + 1,000/s x 30 s of downtime) / (0.75 x 600 s) = 200 rec/s on top of 1,000
        assertThat(d.newParallelism()).containsEntry("op", 12);
        assertThat(d.operators().get("src").targetInputRate()).isCloseTo(1200.0, offset(1e-9));
        assertThat(d.operators().get("src").catchUpShare()).isCloseTo(200.0 / 1200, offset(1e-9));
        assertThat(d.operators().get("src").reasons().get(0))
                .isEqualTo(
                        "source target 1200.0 rec/s = offered 1000.0"
                                + " + 90000 records to drain in 450 s (75 % of the 600 s catch-up time; catch-up share 16.7 %)");
        assertThat(d.reasons())
                .anyMatch(r -> r.startsWith("rescale needed: source 'src' backlog 60000 records"))
                .anyMatch(r -> r.contains("expected rescale downtime 30.0 s (configured prior"));
    }

    @Test
    void ignoresTheBacklogWhenCatchUpIsDisabled() {
        ScalingDecision d =
                decide(PolicyConfig.exactDs2(), 10, 1000, 60_000, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(d.operators().get("src").catchUpShare()).isZero();
    }

    @Test
    void keepsAConfigurationWhoseSpareCapacityDrainsTheBacklogInTime() {
        // at 12 the spare 200 rec/s drains 90,000 records (60,000 + the last rescale's downtime) in
        // 450 s
        ScalingDecision d = decide(CATCH_UP, 12, 1000, 90_000, ScalingHistory.empty());

        assertThat(d.isScale()).isFalse();
        assertThat(d.newParallelism()).containsEntry("op", 12);
        assertThat(d.reasons())
                .anyMatch(r -> r.contains("drains in 450 s at the running configuration"));
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.startsWith("scale-down held: source 'src'"));
    }

    @Test
    void staysWhenATrimCouldNotDrainTheBacklogOfItsOwnRescale() {
        ScalingDecision d = decide(CATCH_UP, 11, 1000, 0, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.NO_CHANGE);
        assertThat(d.newParallelism()).containsEntry("op", 11);
    }

    @Test
    void trimsOnceTheBacklogHasDrainedToWhatDrainsItsOwnDowntime() {
        // 950 + 950 x 30 / 600 = 997.5 rec/s: 10 instances, whose spare 50 rec/s drains 28,500
        // records in 570 s
        ScalingDecision d = decide(CATCH_UP, 14, 950, 0, ScalingHistory.empty());

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 10);
    }

    @Test
    void aTrimIsAFixedPoint() {
        assertThat(decide(CATCH_UP, 10, 950, 0, ScalingHistory.empty()).outcome())
                .isEqualTo(Outcome.NO_CHANGE);
        assertThat(decide(CATCH_UP, 10, 950, 950 * 30, ScalingHistory.empty()).isScale()).isFalse();
    }

    @Test
    void plansForAHighPercentileOfTheDowntimesMeasuredOnTheLatestPath() {
        List<RescaleRecord> restarts =
                List.of(
                        rescale(900, 10, "restart"),
                        rescale(800, 100, "restart"),
                        rescale(600, 20, "restart"));
        List<RescaleRecord> thenInPlace = new java.util.ArrayList<>(restarts);
        thenInPlace.add(rescale(400, 1, "in-place"));

        ScalingDecision afterRestarts =
                decide(CATCH_UP, 10, 1000, 60_000, new ScalingHistory(List.of(), restarts));
        ScalingDecision afterInPlace =
                decide(CATCH_UP, 10, 1000, 60_000, new ScalingHistory(List.of(), thenInPlace));

        assertThat(afterRestarts.operators().get("src").targetInputRate())
                .isCloseTo(1000 + 160_000 / 450.0, offset(1e-9));
        assertThat(afterRestarts.reasons())
                .contains("expected rescale downtime 100.0 s (p90 of 3 measured restart rescales)");
        assertThat(afterInPlace.operators().get("src").targetInputRate())
                .isCloseTo(1000 + 61_000 / 450.0, offset(1e-9));
    }

    @Test
    void ignoresFailedRescalesWhenMeasuringDowntime() {
        RescaleRecord failed =
                RescaleRecord.started(START.minusSeconds(500), Map.of())
                        .finishedAt(START.minusSeconds(100), true);

        ScalingDecision d =
                decide(CATCH_UP, 10, 1000, 60_000, new ScalingHistory(List.of(), List.of(failed)));

        assertThat(d.reasons())
                .anyMatch(r -> r.contains("(configured prior; no rescale measured yet)"));
    }

    @Test
    void refusesANeededRescaleOnceTheHourlyBudgetIsUsed() {
        PolicyConfig budget = CATCH_UP.toBuilder().maxRescalesPerHour(2).build();
        ScalingHistory two =
                new ScalingHistory(
                        List.of(),
                        List.of(rescale(3000, 10, "restart"), rescale(1000, 10, "restart")));

        ScalingDecision d = decide(budget, 10, 1000, 60_000, two);

        assertThat(d.isBlocked(BlockReason.RESCALE_BUDGET_EXHAUSTED)).isTrue();
        assertThat(d.newParallelism()).containsEntry("op", 10);
        assertThat(d.operators().get("op").recommendedParallelism()).isEqualTo(12);
        assertThat(d.reasons())
                .contains("rescale budget used: 2 rescales started in the last hour (at most 2)");
    }

    @Test
    void refusesATrimThatSavesLessThanItsDowntimeCosts() {
        PolicyConfig shortHorizon =
                CATCH_UP.toBuilder().savingsHorizon(Duration.ofSeconds(300)).build();

        // saves 4 instances x 300 s = 1,200 instance-s; 30 s down costs 15 x 30 = 450: worth it
        assertThat(decide(shortHorizon, 14, 950, 0, ScalingHistory.empty()).isScale()).isTrue();
        // saves 1 instance x 300 s; 30 s down costs 11 x 30 = 330 instance-s: not worth it
        ScalingDecision d = decide(shortHorizon, 11, 950, 0, ScalingHistory.empty());
        assertThat(d.isScale()).isFalse();
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.startsWith("trim not worth it"));
    }

    @Test
    void waitsTheScaleDownIntervalAfterTheLastScaleDown() {
        PolicyConfig interval =
                CATCH_UP.toBuilder().scaleDownInterval(Duration.ofMinutes(10)).build();
        ScalingDecision earlier = decide(CATCH_UP, 14, 950, 0, ScalingHistory.empty());
        ScalingDecision recent =
                new ScalingDecision(
                        START.minusSeconds(120),
                        earlier.jobName(),
                        earlier.outcome(),
                        earlier.blockReason(),
                        earlier.reasons(),
                        earlier.operators());

        ScalingDecision d =
                decide(interval, 12, 950, 0, new ScalingHistory(List.of(recent), List.of()));

        assertThat(d.isScale()).isFalse();
        assertThat(d.operators().get("op").reasons())
                .anyMatch(r -> r.contains("scale-down interval of 600 s"));
    }

    @Test
    void aTargetMaxLagLetsThatMuchBacklogStand() {
        PolicyConfig lag = CATCH_UP.toBuilder().targetMaxLag(Duration.ofSeconds(60)).build();

        assertThat(decide(lag, 10, 1000, 50_000, ScalingHistory.empty()).isScale()).isFalse();
        assertThat(decide(lag, 10, 1000, 70_000, ScalingHistory.empty()).isScale()).isTrue();
    }
}
