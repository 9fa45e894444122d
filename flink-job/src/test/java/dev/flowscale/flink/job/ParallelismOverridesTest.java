package dev.flowscale.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.Test;

/**
 * The overrides on a real Flink 2.3 stream graph (no cluster): sequence source → map and filter
 * (chained) → keyBy → sum and sink (chained).
 */
class ParallelismOverridesTest {

    @Test
    void everyOperatorOfAnOverriddenChainGetsItsParallelismAndTheVertexIdsStay() {
        StreamExecutionEnvironment env = job();
        Map<String, JobVertex> before = vertices(env.getStreamGraph(false).getJobGraph());
        JobVertex mapChain = before.get("Map -> Filter");
        JobVertex reduceChain = before.get("Sum -> Out: Writer");

        StreamGraph graph = env.getStreamGraph(false);
        ParallelismOverrides.byStreamNode(
                        env.getStreamGraph(false),
                        graph,
                        Map.of(
                                mapChain.getID().toHexString(), "3",
                                reduceChain.getID().toHexString(), "5"))
                .forEach((node, p) -> graph.getStreamNode(node).setParallelism(p));

        Map<String, JobVertex> after = vertices(graph.getJobGraph());
        assertThat(after.keySet()).isEqualTo(before.keySet());
        assertThat(after.get("Map -> Filter").getParallelism()).isEqualTo(3);
        assertThat(after.get("Sum -> Out: Writer").getParallelism()).isEqualTo(5);
        assertThat(after.get("Source: Numbers").getParallelism()).isEqualTo(1);
        after.forEach((name, v) -> assertThat(v.getID()).isEqualTo(before.get(name).getID()));
    }

    @Test
    void overridesOfVerticesTheJobDoesNotHaveChangeNothing() {
        StreamGraph graph = job().getStreamGraph(false);
        assertThat(
                        ParallelismOverrides.byStreamNode(
                                graph, graph, Map.of("00000000000000000000000000000000", "4")))
                .isEmpty();
    }

    @Test
    void anOverrideAboveTheMaxParallelismOrNotANumberIsRefusedWithTheVertexNamed() {
        StreamExecutionEnvironment env = job();
        JobVertex map = vertices(env.getStreamGraph(false).getJobGraph()).get("Map -> Filter");
        String id = map.getID().toHexString();

        assertThatThrownBy(
                        () ->
                                ParallelismOverrides.byStreamNode(
                                        env.getStreamGraph(false),
                                        env.getStreamGraph(false),
                                        Map.of(id, "9")))
                .hasMessageContaining("'Map -> Filter'")
                .hasMessageContaining("max parallelism 8; use at most 8");
        assertThatThrownBy(
                        () ->
                                ParallelismOverrides.byStreamNode(
                                        env.getStreamGraph(false),
                                        env.getStreamGraph(false),
                                        Map.of(id, "two")))
                .hasMessageContaining("the parallelism 'two'; use a positive whole number");
    }

    private static StreamExecutionEnvironment job() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.setMaxParallelism(8);
        env.fromSequence(0, 100)
                .name("Numbers")
                .rebalance()
                .map(n -> n % 10)
                .returns(Types.LONG)
                .filter(n -> n > 0)
                .keyBy(n -> n, Types.LONG)
                .reduce(Long::sum)
                .name("Sum")
                .sinkTo(new DiscardingSink<>())
                .name("Out");
        return env;
    }

    private static Map<String, JobVertex> vertices(JobGraph graph) {
        return StreamSupport.stream(graph.getVertices().spliterator(), false)
                .collect(
                        Collectors.toMap(
                                JobVertex::getName, v -> v, (a, b) -> a, LinkedHashMap::new));
    }
}
