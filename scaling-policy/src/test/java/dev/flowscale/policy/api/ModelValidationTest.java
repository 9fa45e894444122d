package dev.flowscale.policy.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelValidationTest {

    private static JobTopology job(List<OperatorSpec> ops, Edge... edges) {
        return new JobTopology("job", ops, List.of(edges));
    }

    @Test
    void ordersOperatorsTopologicallyAndFindsSources() {
        JobTopology t =
                job(
                        List.of(
                                OperatorSpec.of("sink", 1),
                                OperatorSpec.of("map", 2),
                                OperatorSpec.of("src", 1)),
                        new Edge("map", "sink"),
                        new Edge("src", "map"));

        assertThat(t.topologicalOrder()).containsExactly("src", "map", "sink");
        assertThat(t.sources()).containsExactly("src");
        assertThat(t.withParallelism(Map.of("map", 5)).operator("map").parallelism()).isEqualTo(5);
    }

    @Test
    void rejectsACycle() {
        assertThatThrownBy(
                        () ->
                                job(
                                        List.of(OperatorSpec.of("a", 1), OperatorSpec.of("b", 1)),
                                        new Edge("a", "b"),
                                        new Edge("b", "a")))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("cycle");
    }

    @Test
    void rejectsAnEdgeToAnUnknownOperator() {
        assertThatThrownBy(() -> job(List.of(OperatorSpec.of("a", 1)), new Edge("a", "b")))
                .hasMessageContaining("unknown operator 'b'");
    }

    @Test
    void rejectsDuplicateOperatorIds() {
        assertThatThrownBy(() -> job(List.of(OperatorSpec.of("a", 1), OperatorSpec.of("a", 2))))
                .hasMessageContaining("declares operator 'a' twice");
    }

    @Test
    void rejectsParallelismAboveTheKeyGroupsNamingTheOperator() {
        assertThatThrownBy(() -> new OperatorSpec("count", 200, 128))
                .hasMessage(
                        "operator 'count' parallelism 200 is more than its 128 key groups;"
                                + " lower the parallelism or raise keyGroups");
    }

    @Test
    void rejectsATargetUtilizationOutsideZeroToOne() {
        assertThatThrownBy(() -> PolicyConfig.builder().targetUtilization(1.5).build())
                .hasMessageContaining("targetUtilization is 1.5");
    }

    @Test
    void rejectsANegativeScaleDownDelay() {
        assertThatThrownBy(
                        () -> PolicyConfig.builder().scaleDownDelay(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("scaleDownDelay");
    }

    @Test
    void acceptsOnlyBlockedDecisionsWithABlockReason() {
        assertThatThrownBy(
                        () ->
                                new ScalingDecision(
                                        Instant.EPOCH,
                                        "job",
                                        Outcome.SCALE,
                                        Optional.of(BlockReason.WARMING_UP),
                                        List.of(),
                                        Map.of()))
                .hasMessageContaining("only BLOCKED");
    }

    @Test
    void measuresTheDurationOfAFinishedRescale() {
        RescaleRecord r = RescaleRecord.started(Instant.EPOCH, Map.of("a", 2));

        assertThat(r.inProgress()).isTrue();
        assertThat(r.finishedAt(Instant.EPOCH.plusSeconds(7), false).duration())
                .contains(Duration.ofSeconds(7));
    }
}
