package dev.flowscale.policy.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The adjacency the topology indexes once must answer exactly as scanning its edges would. */
class JobTopologyIndexTest {

    // a -> c, b -> c twice (two edges), c -> d, a -> d; declared out of order to test the sort.
    private final JobTopology job =
            new JobTopology(
                    "job",
                    List.of(
                            OperatorSpec.of("d", 1),
                            OperatorSpec.of("c", 2),
                            OperatorSpec.of("b", 1),
                            OperatorSpec.of("a", 1)),
                    List.of(
                            new Edge("a", "c"),
                            new Edge("b", "c"),
                            new Edge("b", "c"),
                            new Edge("c", "d"),
                            new Edge("a", "d")));

    @Test
    void listsOneInputPerEdgeInEdgeOrder() {
        assertThat(job.inputsOf("c")).containsExactly("a", "b", "b");
        assertThat(job.inputsOf("d")).containsExactly("c", "a");
        assertThat(job.outputsOf("a")).containsExactly("c", "d");
        assertThat(job.outputsOf("b")).containsExactly("c", "c");
    }

    @Test
    void findsSourcesInTopologicalOrder() {
        assertThat(job.topologicalOrder()).containsExactly("b", "a", "c", "d");
        assertThat(job.sources()).containsExactly("b", "a");
        assertThat(job.isSource("a")).isTrue();
        assertThat(job.isSource("c")).isFalse();
        assertThat(job.operators())
                .extracting(OperatorSpec::id)
                .containsExactly("b", "a", "c", "d");
    }

    @Test
    void givesEveryOperatorItsTopologicalPosition() {
        for (int i = 0; i < job.topologicalOrder().size(); i++) {
            assertThat(job.positionOf(job.topologicalOrder().get(i))).isEqualTo(i);
        }
        assertThat(job.positionOf("zz")).isEqualTo(-1);
    }

    @Test
    void givesAnUnknownOperatorNoNeighbours() {
        assertThat(job.inputsOf("zz")).isEmpty();
        assertThat(job.outputsOf("zz")).isEmpty();
    }

    @Test
    void keepsTheIndexTrueAfterAParallelismChange() {
        JobTopology scaled = job.withParallelism(java.util.Map.of("c", 5));

        assertThat(scaled.inputsOf("c")).containsExactly("a", "b", "b");
        assertThat(scaled.operator("c").parallelism()).isEqualTo(5);
        assertThat(scaled.operators())
                .extracting(OperatorSpec::parallelism)
                .containsExactly(1, 1, 5, 1);
    }
}
