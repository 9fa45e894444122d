package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.START;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A rescale that restarts the job from a checkpoint costs the input since that checkpoint, not only
 * its downtime: the policy plans drains and trims with the measured input cost.
 */
class RescaleInputCostTest {

    private static final PolicyConfig CONFIG =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofSeconds(600))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .build();

    private static RescaleRecord inPlace(long agoSeconds, long downSeconds, Long inputSeconds) {
        return RescaleRecord.started(START.minusSeconds(agoSeconds), Map.of(), "in-place")
                .finishedAt(START.minusSeconds(agoSeconds - downSeconds), false)
                .withInputCost(Optional.ofNullable(inputSeconds).map(Duration::ofSeconds));
    }

    private static ScalingDecision decide(int p, double rate, double backlog, ScalingHistory h) {
        return new Ds2Policy(CONFIG, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:" + p), "src->op"),
                        window(source("src", 1, 100_000, rate, backlog), op("op", p, 100.0 * p, 0)),
                        h);
    }

    @Test
    void plansAHighPercentileOfTheMeasuredInputCostAndKeepsTheDowntimeApart() {
        ScalingHistory h =
                new ScalingHistory(
                        List.of(),
                        List.of(inPlace(900, 3, 40L), inPlace(800, 2, 90L), inPlace(700, 4, 60L)));

        RescaleCost cost = RescaleCost.of(h, CONFIG);

        assertThat(cost.input()).isEqualTo(Duration.ofSeconds(90));
        assertThat(cost.downtime()).isEqualTo(Duration.ofSeconds(4));
        assertThat(cost.seconds()).isEqualTo(90.0);
        assertThat(cost.explain())
                .isEqualTo(
                        "expected rescale cost 90.0 s of input (p90 of 3 measured in-place"
                                + " rescales; 3 of them restarted from a checkpoint and re-read the input"
                                + " since it; 4.0 s from the decision until the job ran again)");
    }

    @Test
    void aRescaleWithoutAMeasuredInputCostCostsItsDowntime() {
        ScalingHistory h =
                new ScalingHistory(
                        List.of(), List.of(inPlace(900, 3, null), inPlace(800, 5, null)));

        RescaleCost cost = RescaleCost.of(h, CONFIG);

        assertThat(cost.input()).isEqualTo(Duration.ofSeconds(5));
        assertThat(cost.explain())
                .isEqualTo("expected rescale downtime 5.0 s (p90 of 2 measured in-place rescales)");
    }

    @Test
    void aNeededRescaleSizesItsDrainForTheInputItCostsNotItsDowntime() {
        ScalingHistory h =
                new ScalingHistory(List.of(), List.of(inPlace(900, 3, 90L), inPlace(800, 3, 90L)));

        ScalingDecision d = decide(10, 1000, 60_000, h);

        // (60,000 owed + 1,000/s x 90 s re-read) / (0.75 x 600 s) = 333.3 rec/s on top of 1,000
        assertThat(d.operators().get("src").targetInputRate())
                .isCloseTo(1000 + 150_000 / 450.0, offset(1e-9));
        assertThat(d.newParallelism()).containsEntry("op", 14);
    }

    @Test
    void aTrimLeavesTheSpareToDrainTheInputItsRescaleCosts() {
        // at a 3 s cost 14 -> 10 (spare 50 rec/s); a rescale that re-reads 90 s of input sizes for
        // 950 + 950 x 90 / 600 = 1,092.5 rec/s: 11, whose spare 150 rec/s drains 85,500 records in
        // 570 s
        ScalingHistory cheap =
                new ScalingHistory(
                        List.of(), List.of(inPlace(900, 3, null), inPlace(800, 3, null)));
        ScalingHistory rewinding =
                new ScalingHistory(List.of(), List.of(inPlace(900, 3, 90L), inPlace(800, 3, 90L)));

        assertThat(decide(14, 950, 0, cheap).newParallelism()).containsEntry("op", 10);
        ScalingDecision d = decide(14, 950, 0, rewinding);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("op", 11);
    }

    @Test
    void aNegativeInputCostIsRefusedNamingTheField() {
        RescaleRecord r = RescaleRecord.started(START, Map.of());

        assertThatThrownBy(() -> r.withInputCost(Optional.of(Duration.ofSeconds(-1))))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("rescale input cost must not be negative");
    }
}
