package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ChainedOperatorsTest {

    private static JobBuilder mapFilter(CollectingSink<Long> sink) {
        JobBuilder job = JobBuilder.named("chained");
        job.source("src", Sources.sequence(10_000))
                .parallelism(2)
                .map("times3", x -> x * 3)
                .parallelism(2)
                .filter("even", x -> x % 2 == 0)
                .parallelism(2)
                .sink("sink", sink)
                .parallelism(2);
        return job;
    }

    @Test
    void aChainRunsOnOneThreadPerInstanceAndKeepsEveryOperatorsOwnCounts() throws Exception {
        CollectingSink<Long> sink = Sinks.collecting();
        try (RunningJob running = mapFilter(sink).start(JobConfig.defaults().withBatchSize(64))) {
            assertThat(running.tasks().stream().filter(t -> t.chain.head() == t))
                    .as("one chain per source instance")
                    .hasSize(2);
            assertThat(running.await(Duration.ofSeconds(30))).isTrue();
            JobMetricsSnapshot metrics = running.metrics();
            assertThat(sum(metrics.instancesOf("times3"), true)).isEqualTo(10_000);
            assertThat(sum(metrics.instancesOf("times3"), false)).isEqualTo(10_000);
            assertThat(sum(metrics.instancesOf("even"), true)).isEqualTo(10_000);
            assertThat(sum(metrics.instancesOf("even"), false)).isEqualTo(5_000);
            assertThat(sum(metrics.instancesOf("sink"), true)).isEqualTo(5_000);
        }
        assertThat(sink.records())
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, 10_000)
                                .map(x -> x * 3)
                                .filter(x -> x % 2 == 0)
                                .boxed()
                                .toList());
    }

    @Test
    void everyChainedInstanceAccountsForEachNanosecondOfItsThreadOnce() throws Exception {
        CollectingSink<Long> sink = Sinks.collecting();
        try (RunningJob running = mapFilter(sink).start(JobConfig.defaults().withBatchSize(64))) {
            assertThat(running.await(Duration.ofSeconds(30))).isTrue();
            for (String op : List.of("src", "times3", "even", "sink")) {
                for (InstanceCounts s : running.metrics().instancesOf(op)) {
                    assertThat(s.usefulNanos() + s.waitInputNanos() + s.backpressureNanos())
                            .as(op + " " + s.instance())
                            .isEqualTo(s.observedNanos());
                    assertThat(s.usefulNanos()).as(op + " useful").isPositive();
                }
            }
        }
    }

    @Test
    void theSameJobUnchainedGivesTheSameRecords() throws Exception {
        CollectingSink<Long> chained = Sinks.collecting();
        CollectingSink<Long> alone = Sinks.collecting();
        try (RunningJob running = mapFilter(chained).start()) {
            assertThat(running.await(Duration.ofSeconds(30))).isTrue();
        }
        try (RunningJob running =
                RunningJob.start(mapFilter(alone).build().unchained(), JobConfig.defaults())) {
            assertThat(running.tasks()).allMatch(t -> t.chain.head() == t);
            assertThat(running.await(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(chained.records()).containsExactlyInAnyOrderElementsOf(alone.records());
    }

    private static long sum(List<InstanceCounts> instances, boolean in) {
        return instances.stream().mapToLong(s -> in ? s.recordsIn() : s.recordsOut()).sum();
    }
}
