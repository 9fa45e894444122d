package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.testing.CountingJob;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChainPlanTest {

    /** source → a → b → keyBy → count → sink, each at parallelism {@code p} unless changed. */
    private static JobBuilder pipeline() {
        JobBuilder job = JobBuilder.named("chains");
        job.source("src", Sources.sequence(10))
                .map("a", x -> x)
                .map("b", x -> x)
                .keyBy(x -> "k" + x % 3)
                .process("count", CountingJob.Count::new)
                .sink("sink", Sinks.counting());
        return job;
    }

    @Test
    void forwardEdgesOfEqualParallelismChainAndAKeyedExchangeEndsTheChain() {
        JobGraph graph = pipeline().build();
        assertThat(ChainPlan.heads(graph))
                .containsExactly(
                        Map.entry("src", "src"),
                        Map.entry("a", "src"),
                        Map.entry("b", "src"),
                        Map.entry("count", "count"),
                        Map.entry("sink", "count"));
    }

    @Test
    void aRescaleSplitsAChainAndALaterOneReFormsIt() {
        JobGraph graph = pipeline().build();
        JobGraph split = graph.withParallelism(Map.of("b", 2));
        assertThat(ChainPlan.heads(split))
                .containsEntry("a", "src")
                .containsEntry("b", "b")
                .containsEntry("count", "count");

        JobGraph reformed = split.withParallelism(Map.of("b", 1));
        assertThat(ChainPlan.heads(reformed)).isEqualTo(ChainPlan.heads(graph));
        assertThat(reformed.edges()).isEqualTo(graph.edges());
    }

    @Test
    void operatorsRescaledTogetherStayChained() {
        JobGraph graph = pipeline().build().withParallelism(Map.of("src", 3, "a", 3, "b", 3));
        assertThat(ChainPlan.heads(graph)).containsEntry("a", "src").containsEntry("b", "src");
    }

    @Test
    void startNewChainAndDisableChainingBreakChainsWhereTheUserSays() {
        JobBuilder job = JobBuilder.named("broken");
        DataStream<Long> a = job.source("src", Sources.sequence(10)).map("a", x -> x);
        a.map("b", x -> x).startNewChain().map("c", x -> x).disableChaining().map("d", x -> x);
        assertThat(ChainPlan.heads(job.build()))
                .containsExactly(
                        Map.entry("src", "src"),
                        Map.entry("a", "src"),
                        Map.entry("b", "b"),
                        Map.entry("c", "c"),
                        Map.entry("d", "d"));
    }

    @Test
    void rebalanceUnionsAndSideOutputsEndAChain() {
        JobBuilder job = JobBuilder.named("ends");
        DataStream<Long> src = job.source("src", Sources.sequence(10));
        src.rebalance().map("rebalanced", x -> x);
        DataStream<Long> other = job.source("other", Sources.sequence(10));
        src.union(other).map("united", x -> x);
        assertThat(ChainPlan.heads(job.build()))
                .containsEntry("rebalanced", "rebalanced")
                .containsEntry("united", "united");
    }

    @Test
    void anUnchainedGraphRunsEveryOperatorAlone() {
        assertThat(ChainPlan.heads(pipeline().build().unchained()))
                .allSatisfy((op, head) -> assertThat(head).isEqualTo(op));
    }
}
