package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.collector.api.MetricsSample;
import dev.flowscale.collector.window.WindowSettings;
import dev.flowscale.collector.window.WindowedMetricsProvider;
import dev.flowscale.flink.testing.FlinkTestCluster;
import dev.flowscale.flink.testing.FlinkWordCount;
import dev.flowscale.flink.testing.Sentences;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.testsupport.Await;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The metrics source on a real Flink 2.3 MiniCluster (REST on loopback) running the word count at
 * 1/1/1 under a load it cannot sustain: 200 sentences/s of 5 words; Split blocks 7 ms per sentence
 * (about 143/s per instance), Count 2.5 ms per word (about 400/s per instance).
 */
class FlinkRestMetricsSourceIT {
    static final String SOURCE = "Source: Sentences";
    static final String SPLIT = "Split";
    static final String COUNT = "Count -> Counts: Writer";

    private static FlinkTestCluster flink;
    private static FlinkRestMetricsSource source;

    @BeforeAll
    static void startJob() throws Exception {
        flink = FlinkTestCluster.start(8, true);
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
        FlinkRestClient rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(10));
        source = new FlinkRestMetricsSource(new FlinkJobRef(rest, jobId), Clock.systemUTC());
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
    void turnsBusyTimeIntoDs2RatesAndDecidesTheOptimumFromOneInstanceEach() {
        WindowedMetricsProvider windows =
                new WindowedMetricsProvider(
                        source,
                        new WindowSettings(Duration.ofSeconds(3), Duration.ofSeconds(2)),
                        List.of());
        Await.until(
                Duration.ofSeconds(40),
                Duration.ofMillis(500),
                "a complete window",
                () -> windows.poll().complete());
        MetricsWindow window = windows.currentWindow().orElseThrow();
        OperatorMetrics sentences = window.metrics(SOURCE).orElseThrow();
        OperatorMetrics split = window.metrics(SPLIT).orElseThrow();
        OperatorMetrics count = window.metrics(COUNT).orElseThrow();
        assertThat(sentences.source().orElseThrow().offeredRate())
                .as("read from the source operator's own counter: the source task counts no input")
                .isCloseTo(200, within(30.0));
        assertThat(split.trueProcessingRate()).isBetween(100.0, 143.0);
        assertThat(split.trueOutputRate() / split.trueProcessingRate())
                .isCloseTo(Sentences.WORDS_PER_SENTENCE, within(0.01));
        assertThat(count.trueProcessingRate()).isBetween(300.0, 400.0);

        ScalingDecision decision =
                new Ds2Policy(PolicyConfig.defaults(), Clock.systemUTC())
                        .decide(windows.topology(), window, ScalingHistory.empty());
        assertThat(decision.isScale()).as(decision.toString()).isTrue();
        assertThat(decision.operators().get(SPLIT).newParallelism()).isEqualTo(2);
        assertThat(decision.operators().get(COUNT).newParallelism()).isEqualTo(3);
        assertThat(decision.operators().get(SOURCE).newParallelism()).isEqualTo(1);
    }
}
