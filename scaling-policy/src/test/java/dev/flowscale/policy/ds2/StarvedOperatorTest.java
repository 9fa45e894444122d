package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An operator starved of input behind a measured bottleneck processed nothing, so its capacity is
 * unknown. The decision does not wait for it: the bottleneck is raised now, the starved operator is
 * kept where it runs, and no operator is lowered while the rates passed on are unknown.
 */
class StarvedOperatorTest {

    /** src offers 1000 rec/s; 'slow' carries 100; 'starved' after it saw nothing; 'wide' idles. */
    private static final JobTopology JOB =
            topology(
                    List.of("src:1", "slow:1", "starved:4", "wide:8"),
                    "src->slow",
                    "slow->starved",
                    "src->wide");

    private static MetricsWindow starvedBehindTheBottleneck() {
        return window(
                source("src", 1, 100, 1000, 0),
                op("slow", 1, 100, 100),
                OperatorMetrics.of("starved", 4, 0, 0, 0, 0),
                op("wide", 8, 5000, 5000));
    }

    @Test
    void theMeasuredBottleneckIsRaisedAndTheStarvedOperatorKeptAtItsParallelism() {
        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                        .decide(JOB, starvedBehindTheBottleneck(), ScalingHistory.empty());

        assertThat(d.blockReason()).isEmpty();
        assertThat(d.operators().get("slow").newParallelism()).isEqualTo(10);
        assertThat(d.operators().get("starved").newParallelism()).isEqualTo(4);
        assertThat(String.join("\n", d.reasons()))
                .contains("operator 'starved' processed no records in the window")
                .contains("kept at its parallelism while the measured bottleneck is raised");
    }

    @Test
    void noOperatorIsLoweredWhileAnOperatorsOutputIsUnknown() {
        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                        .decide(JOB, starvedBehindTheBottleneck(), ScalingHistory.empty());

        assertThat(d.operators().get("wide").newParallelism()).isEqualTo(8);
        assertThat(d.operators().get("wide").reasons())
                .anyMatch(
                        r ->
                                r.contains(
                                        "an operator's output is unknown, so no operator is lowered"));
    }

    @Test
    void withoutAMeasuredShortfallTheUnknownCapacityBlocksTheDecision() {
        MetricsWindow sustained =
                window(
                        source("src", 1, 100, 100, 0),
                        op("slow", 1, 200, 200),
                        OperatorMetrics.of("starved", 4, 0, 0, 0, 0),
                        op("wide", 8, 5000, 5000));

        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                        .decide(JOB, sustained, ScalingHistory.empty());

        assertThat(d.blockReason()).contains(BlockReason.METRICS_MISSING);
    }
}
