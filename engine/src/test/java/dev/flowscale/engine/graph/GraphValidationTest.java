package dev.flowscale.engine.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class GraphValidationTest {
    private static final Object SOURCE = Sources.sequence(10);
    private static final MapFunction<Object, Object> IDENTITY = x -> x;
    private static final Object SINK = Sinks.counting();

    private static OperatorNode node(String id, OperatorKind kind, Object fn, int p) {
        return new OperatorNode(id, id, kind, fn, p, null);
    }

    private static JobGraph graph(List<OperatorNode> nodes, List<Edge> edges) {
        return new JobGraph("job", 128, nodes, edges);
    }

    @Test
    void rejectsACycleNamingItsOperators() {
        assertThatThrownBy(
                        () ->
                                graph(
                                        List.of(
                                                node("src", OperatorKind.SOURCE, SOURCE, 1),
                                                node("a", OperatorKind.MAP, IDENTITY, 1),
                                                node("b", OperatorKind.MAP, IDENTITY, 1)),
                                        List.of(
                                                Edge.of("src", "a", Partitioning.REBALANCE),
                                                Edge.of("a", "b", Partitioning.REBALANCE),
                                                Edge.of("b", "a", Partitioning.REBALANCE))))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("cycle")
                .hasMessageContaining("[a, b]");
    }

    @Test
    void rejectsADanglingEdgeNamingTheMissingOperator() {
        assertThatThrownBy(
                        () ->
                                graph(
                                        List.of(
                                                node("src", OperatorKind.SOURCE, SOURCE, 1),
                                                node("sink", OperatorKind.SINK, SINK, 1)),
                                        List.of(
                                                Edge.of("src", "sink", Partitioning.REBALANCE),
                                                Edge.of("src", "ghost", Partitioning.REBALANCE))))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("'ghost'")
                .hasMessageContaining("not in the job");
    }

    @Test
    void rejectsADuplicateOperatorId() {
        assertThatThrownBy(
                        () ->
                                graph(
                                        List.of(
                                                node("src", OperatorKind.SOURCE, SOURCE, 1),
                                                node("src", OperatorKind.SINK, SINK, 1)),
                                        List.of()))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("(id src)")
                .hasMessageContaining("unique");
    }

    @Test
    void rejectsParallelismBelowOneAndAboveKeyGroups() {
        JobBuilder zero = JobBuilder.named("j");
        zero.source("src", Sources.sequence(1)).parallelism(0).sink("sink", Sinks.counting());
        assertThatThrownBy(zero::build)
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("operator 'src'")
                .hasMessageContaining("parallelism 0 is below 1");
        JobBuilder job = JobBuilder.named("j").keyGroups(8);
        job.source("src", Sources.sequence(1)).sink("sink", Sinks.counting()).parallelism(9);
        assertThatThrownBy(job::build)
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("operator 'sink'")
                .hasMessageContaining("is more than the job's 8 key groups");
    }

    @Test
    @SuppressWarnings("unchecked")
    void rejectsAKeyedOperatorWithoutKeyBy() {
        Supplier<Object> factory = Object::new;
        assertThatThrownBy(
                        () ->
                                graph(
                                        List.of(
                                                node("src", OperatorKind.SOURCE, SOURCE, 1),
                                                node(
                                                        "count",
                                                        OperatorKind.KEYED_PROCESS,
                                                        factory,
                                                        1)),
                                        List.of(Edge.of("src", "count", Partitioning.REBALANCE))))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("operator 'count'")
                .hasMessageContaining("keySelector")
                .hasMessageContaining("keyBy");
        assertThatThrownBy(
                        () ->
                                graph(
                                        List.of(
                                                node("src", OperatorKind.SOURCE, SOURCE, 1),
                                                node(
                                                        "count",
                                                        OperatorKind.KEYED_PROCESS,
                                                        factory,
                                                        1)),
                                        List.of(new Edge("src", "count", Partitioning.HASH, null))))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("keySelector is missing");
    }

    @Test
    void rejectsAnOperatorWithoutInputsAndASourceWithInputs() {
        assertThatThrownBy(
                        () ->
                                graph(
                                        List.of(
                                                node("src", OperatorKind.SOURCE, SOURCE, 1),
                                                node("lonely", OperatorKind.MAP, IDENTITY, 1)),
                                        List.of()))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("operator 'lonely'")
                .hasMessageContaining("inputs");
    }

    @Test
    void invalidGraphStartsNoThread() {
        long before = flowscaleThreads();
        JobBuilder job = JobBuilder.named("bad");
        job.source("src", Sources.sequence(5)).parallelism(200).sink("sink", Sinks.counting());
        assertThatThrownBy(job::start).isInstanceOf(InvalidJobException.class);
        assertThat(flowscaleThreads()).isEqualTo(before);
    }

    @Test
    void ordersOperatorsTopologicallyAndRebalancesForwardEdgesOnRescale() {
        JobBuilder job = JobBuilder.named("j");
        job.source("src", Sources.sequence(5)).map("m", x -> x).sink("sink", Sinks.counting());
        JobGraph graph = job.build();
        assertThat(graph.topologicalOrder()).containsExactly("src", "m", "sink");
        assertThat(graph.edges()).allMatch(e -> e.partitioning() == Partitioning.FORWARD);
        JobGraph rescaled = graph.withParallelism(java.util.Map.of("m", 3));
        assertThat(rescaled.inputsOf("m").get(0).partitioning()).isEqualTo(Partitioning.REBALANCE);
        assertThat(rescaled.parallelism()).containsEntry("m", 3).containsEntry("src", 1);
    }

    private static long flowscaleThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("flowscale-bad"))
                .count();
    }
}
