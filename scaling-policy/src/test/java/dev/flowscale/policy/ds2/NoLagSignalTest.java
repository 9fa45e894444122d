package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A source that cannot tell its backlog (a Kafka reader without log ends) is not read as 0. */
class NoLagSignalTest {
    private static final JobTopology JOB =
            new JobTopology(
                    "job",
                    List.of(OperatorSpec.of("src", 1), OperatorSpec.of("op", 1)),
                    List.of(new Edge("src", "op")));

    @Test
    void aSourceWithoutALagSignalBlocksTheDecisionAndTheReasonSaysSo() {
        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                        .decide(
                                JOB,
                                window(
                                        OperatorMetrics.of("src", 1, 1000, 1000, 100, 100)
                                                .withSource(Double.NaN, null),
                                        op("op", 1, 50, 50)),
                                ScalingHistory.empty());

        assertThat(d.blockReason()).contains(BlockReason.METRICS_MISSING);
        assertThat(String.join("\n", d.reasons()))
                .contains("source 'src' has no lag signal")
                .contains("an unknown backlog is not zero backlog");
    }

    @Test
    void theSameWindowWithAZeroBacklogIsADecision() {
        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                        .decide(
                                JOB,
                                window(source("src", 1, 1000, 100, 0), op("op", 1, 50, 50)),
                                ScalingHistory.empty());

        assertThat(d.blockReason()).isEmpty();
        assertThat(d.operators().get("op").newParallelism()).isEqualTo(2);
    }

    @Test
    void noSignalIsANullBacklogAndZeroIsASignal() {
        assertThat(new SourceMetrics(Double.NaN, null).hasBacklogSignal()).isFalse();
        assertThat(new SourceMetrics(0, 0.0).hasBacklogSignal()).isTrue();
    }

    @Test
    void aNaNBacklogIsAnInvalidMeasurementNotAMissingSignal() {
        ScalingDecision d =
                new Ds2Policy(PolicyConfig.exactDs2(), clockAt(END))
                        .decide(
                                JOB,
                                window(
                                        source("src", 1, 1000, 100, Double.NaN),
                                        op("op", 1, 50, 50)),
                                ScalingHistory.empty());

        assertThat(d.blockReason()).contains(BlockReason.METRICS_INVALID);
        assertThat(String.join("\n", d.reasons())).contains("operator 'src' backlogRecords is NaN");
    }
}
