package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.testsupport.Await;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The metrics source's view of a real Flink 2.3 MiniCluster job (REST on loopback): the word
 * count's graph, key groups and the source's split limit. Its rates and the decision they lead to
 * are checked in {@link FlinkInPlaceRescaleIT}.
 */
class FlinkRestMetricsSourceIT {
    static final String SOURCE = "Source: Sentences";
    static final String SPLIT = "Split";
    static final String COUNT = "Count -> Counts: Writer";

    private static LocalFlinkCluster flink;
    private static FlinkRestClient rest;
    private static FlinkJobRef job;
    private static FlinkRestMetricsSource source;

    @BeforeAll
    static void startJob() throws Exception {
        flink = LocalFlinkCluster.start(8, true);
        String jobId =
                flink.submit(
                        new FlinkWordCount.Settings(
                                "metrics",
                                System.currentTimeMillis(),
                                200,
                                1_000_000,
                                7000,
                                2500,
                                16));
        rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(10));
        job = new FlinkJobRef(rest, jobId);
        source = new FlinkRestMetricsSource(job, Clock.systemUTC());
    }

    @AfterAll
    static void stop() throws Exception {
        flink.close();
    }

    @Test
    void readsTheJobGraphWithItsEdgesKeyGroupsAndTheSourcesSplitLimit() {
        AtomicReference<MetricsSample> sample = new AtomicReference<>();
        Await.until(
                Duration.ofSeconds(30),
                "a sample of every subtask",
                () -> {
                    try {
                        sample.set(source.sample());
                        return sample.get().instances().size() == 3;
                    } catch (RuntimeException notRunningYet) {
                        return false;
                    }
                });
        JobTopology topology = sample.get().topology();
        assertThat(topology.topologicalOrder()).containsExactly(SOURCE, SPLIT, COUNT);
        assertThat(topology.edges())
                .containsExactly(new Edge(SOURCE, SPLIT), new Edge(SPLIT, COUNT));
        assertThat(topology.operator(COUNT).keyGroups()).isEqualTo(16);
        assertThat(topology.operator(SOURCE).keyGroups())
                .as("the data generator has one split")
                .isEqualTo(1);
        assertThat(sample.get().runId()).startsWith("flink:");
    }

    @Test
    void findsTheRunningJobByNameAndNamesTheRunningJobsWhenNoneMatches() {
        Await.until(Duration.ofSeconds(30), "the job to run", () -> job.read().running());
        assertThat(FlinkJobRef.find(rest, "word-count-metrics").jobId()).isEqualTo(job.jobId());
        assertThat(FlinkJobRef.find(rest, null).jobId()).isEqualTo(job.jobId());
        assertThatThrownBy(() -> FlinkJobRef.find(rest, "no-such-job"))
                .isInstanceOf(FlinkConnectorException.class)
                .hasMessageContaining("no running Flink jobs named 'no-such-job'")
                .hasMessageContaining("'word-count-metrics' (" + job.jobId() + ")")
                .hasMessageContaining("pass --job");
    }

    @Test
    void refusesADecisionAboveAVertexsKeyGroupsBeforeTouchingTheJob() throws Exception {
        Await.until(
                Duration.ofSeconds(30), "the job to run", () -> job.read().allVerticesRunning());
        ScalingDecision tooMany =
                ScalingDecision.of(
                        Instant.now(),
                        job.read().name(),
                        List.of("test: Count 1 -> 17"),
                        List.of(new OperatorDecision(COUNT, 1, 17, 17, 0, 0, 0, 0, List.of())));
        List<RescaleReport> reports = new CopyOnWriteArrayList<>();
        try (FlinkRescaler rescaler =
                new FlinkRescaler(
                        job,
                        Optional.empty(),
                        Duration.ofSeconds(5),
                        Clock.systemUTC(),
                        List.of(reports::add))) {
            assertThatThrownBy(
                            () ->
                                    rescaler.realize(tooMany)
                                            .toCompletableFuture()
                                            .get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("vertex '" + COUNT + "' cannot run at 17")
                    .hasMessageContaining("max parallelism (key groups) is 16");
        }
        assertThat(reports).singleElement().satisfies(r -> assertThat(r.succeeded()).isFalse());
        assertThat(job.read().parallelism()).isEqualTo(Map.of(SOURCE, 1, SPLIT, 1, COUNT, 1));
        assertThat(rest.get("jobs/" + job.jobId() + "/resource-requirements").toString())
                .as("the requirements were never changed")
                .doesNotContain("\"upperBound\":17");
    }
}
