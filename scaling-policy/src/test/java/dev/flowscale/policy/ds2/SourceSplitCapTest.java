package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A source whose splits bound its parallelism (a Kafka topic's partitions) is capped there. */
class SourceSplitCapTest {

    /** The source reads 100 rec/s per instance and must read 1,000 rec/s: DS2 asks for 10. */
    private static OperatorDecision sourceDecision(OperatorSpec src, PolicyConfig config) {
        JobTopology job =
                new JobTopology(
                        "job",
                        List.of(src, OperatorSpec.of("op", 20)),
                        List.of(new Edge("src", "op")));
        return new Ds2Policy(config, clockAt(END))
                .decide(
                        job,
                        window(source("src", 1, 100, 1000, 0), op("op", 20, 2000, 0)),
                        ScalingHistory.empty())
                .operators()
                .get("src");
    }

    @Test
    void aSourceIsCappedAtItsPartitionCountAndTheDecisionSaysSo() {
        OperatorDecision d =
                sourceDecision(OperatorSpec.of("src", 1).withSplits(4), PolicyConfig.exactDs2());

        assertThat(d.newParallelism()).isEqualTo(4);
        assertThat(d.reasons())
                .contains(
                        "capped at 4: the source has 4 splits (Kafka partitions);"
                                + " an instance beyond them would read nothing");
    }

    @Test
    void aCapThatDoesNotBindIsNotMentioned() {
        OperatorDecision d =
                sourceDecision(OperatorSpec.of("src", 1).withSplits(12), PolicyConfig.exactDs2());

        assertThat(d.newParallelism()).isGreaterThanOrEqualTo(10).isLessThanOrEqualTo(12);
        assertThat(d.reasons()).noneMatch(r -> r.contains("splits"));
    }

    @Test
    void aLowerMaxParallelismBoundIsReportedAsTheBoundNotAsTheSplits() {
        OperatorDecision d =
                sourceDecision(
                        OperatorSpec.of("src", 1).withSplits(4),
                        PolicyConfig.builder().jobBounds(1, 3).build());

        assertThat(d.newParallelism()).isEqualTo(3);
        assertThat(d.reasons()).contains("clamped to max parallelism 3");
    }

    @Test
    void aSourceWithoutSplitsIsBoundedByItsKeyGroupsOnly() {
        assertThat(OperatorSpec.of("src", 1).maxUsefulParallelism())
                .isEqualTo(OperatorSpec.DEFAULT_KEY_GROUPS);
        assertThat(OperatorSpec.of("src", 1).withSplits(4).maxUsefulParallelism()).isEqualTo(4);
        assertThat(OperatorSpec.of("src", 1).withSplits(4).withParallelism(2).splits())
                .as("the split count survives a parallelism change")
                .isEqualTo(4);
    }

    @Test
    void aNegativeSplitCountIsRejectedNamingTheOperator() {
        assertThatThrownBy(() -> OperatorSpec.of("src", 1).withSplits(-1))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("operator 'src' splits -1");
    }
}
