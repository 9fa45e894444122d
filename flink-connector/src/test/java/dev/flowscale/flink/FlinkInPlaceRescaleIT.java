package dev.flowscale.flink;

import static dev.flowscale.flink.FlinkRestMetricsSourceIT.COUNT;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.SOURCE;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.SPLIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.flink.demo.Sentences;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.testsupport.Await;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * DS2 on a real Flink 2.3 MiniCluster with the adaptive scheduler: the word count starts at 1/1/1
 * under a load it cannot sustain (200 sentences/s of 5 words; Split blocks 6 ms per sentence, at
 * most 167/s per instance; Count 2.2 ms per word, at most 455/s per instance), the first window's
 * decision is DS2's optimum for what Flink measured (at least Split 2 and Count 3, the optimum for
 * the costs alone; more where parking overshoots on a loaded machine), the rescaler carries it out
 * in place, the next window at the new parallelism asks for no more instances (one decision was
 * enough), and once the job is stopped with a savepoint every word's count is exact.
 */
@Tag("flink-rescale")
class FlinkInPlaceRescaleIT {
    private static final long SENTENCES = 1_000_000;

    /** Exact DS2, bounded by the MiniCluster's 8 slots. */
    private static final PolicyConfig POLICY = PolicyConfig.builder().jobBounds(1, 8).build();

    @Test
    void decidesTheDs2OptimumFromOneInstanceEachAndRescalesInPlaceWithExactCounts()
            throws Exception {
        try (LocalFlinkCluster flink = LocalFlinkCluster.start(8, true)) {
            FlinkJobRef job = submit(flink, "in-place", 2200);
            WindowedMetricsProvider windows =
                    new WindowedMetricsProvider(
                            new FlinkRestMetricsSource(job, Clock.systemUTC()),
                            new WindowSettings(Duration.ofSeconds(3), Duration.ofSeconds(2)),
                            List.of());
            awaitWindow(windows, "a complete window");
            MetricsWindow window = windows.currentWindow().orElseThrow();
            assertDs2Rates(window);

            ScalingDecision decision =
                    new Ds2Policy(POLICY, Clock.systemUTC())
                            .decide(windows.topology(), window, ScalingHistory.empty());
            assertThat(decision.operators().get(SOURCE).newParallelism()).isEqualTo(1);
            int split = decision.operators().get(SPLIT).newParallelism();
            assertThat(split)
                    .as(
                            "at least 200 sentences/s / 167 per instance; more where the blocking overshoots")
                    .isBetween(2, 4);
            int count = decision.operators().get(COUNT).newParallelism();
            assertThat(count)
                    .as(
                            "at least 1,000 words/s / 455 per instance; more where the blocking overshoots")
                    .isBetween(3, 8);

            List<RescaleReport> reports = new CopyOnWriteArrayList<>();
            try (FlinkRescaler rescaler =
                    new FlinkRescaler(
                            job,
                            Optional.empty(),
                            Duration.ofSeconds(40),
                            Clock.systemUTC(),
                            List.of(reports::add))) {
                assertThat(rescaler.pathOf(decision)).isEqualTo("in-place");
                rescaler.realize(decision).toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            assertThat(job.read().parallelism())
                    .isEqualTo(Map.of(SOURCE, 1, SPLIT, split, COUNT, count));
            assertThat(reports).singleElement().satisfies(r -> assertThat(r.succeeded()).isTrue());
            assertRestartedFromAFreshCheckpoint(reports.get(0), job);
            assertSustained(windows, decision);

            new FlinkSteps(job, Clock.systemUTC()).stopWithSavepoint(Instant.now().plusSeconds(60));
            Await.until(
                    Duration.ofSeconds(60),
                    "the job to stop",
                    () -> "FINISHED".equals(job.read().state()));
            assertExact(FlinkWordCount.counts("in-place"));
        }
    }

    /**
     * Before the rescale the rescaler let a checkpoint complete (or says why none did); the job
     * restored from a checkpoint, and the report has the input cost: from that checkpoint's trigger
     * to running again.
     */
    static void assertRestartedFromAFreshCheckpoint(RescaleReport r, FlinkJobRef job) {
        assertThat(r.note())
                .as(r.summary())
                .matches(
                        "(waited .* for checkpoint \\d+ to complete first|no checkpoint completed).*");
        assertThat(r.inputCost()).as(r.summary()).isPresent();
        assertThat(r.inputCost().orElseThrow())
                .as(r.summary())
                .isGreaterThanOrEqualTo(r.downtime());
        Await.until(
                Duration.ofSeconds(30),
                "Flink's checkpoint statistics to show the restore",
                () -> CheckpointStats.read(job).restored().isPresent());
        System.out.println("in-place rescale: " + r.summary());
    }

    /**
     * Stopped with a savepoint, the job has processed exactly the sentences its source emitted, 0
     * .. k - 1: each word's count is its number of occurrences there, none lost, none counted
     * twice.
     */
    static void assertExact(Map<String, Long> counts) {
        long words = counts.values().stream().mapToLong(Long::longValue).sum();
        assertThat(words % Sentences.WORDS_PER_SENTENCE).isZero();
        assertThat(words).isPositive();
        assertThat(counts).isEqualTo(Sentences.counts(words / Sentences.WORDS_PER_SENTENCE));
    }

    /**
     * Runs the word count at 1/1/1 under 200 sentences/s, Split blocking 6 ms per sentence and
     * Count {@code countMicros} per word.
     */
    static FlinkJobRef submit(LocalFlinkCluster flink, String tag, long countMicros)
            throws Exception {
        return new FlinkJobRef(
                new FlinkRestClient(flink.rest(), Duration.ofSeconds(10)),
                flink.submit(
                        new FlinkWordCount.Settings(
                                tag,
                                System.currentTimeMillis(),
                                200,
                                SENTENCES,
                                6000,
                                countMicros,
                                16)));
    }

    /**
     * Polls the job's metrics until a window is complete (a minute at most, on a loaded machine).
     */
    static void awaitWindow(WindowedMetricsProvider windows, String what) {
        Await.until(
                Duration.ofSeconds(60),
                Duration.ofMillis(500),
                what,
                () -> windows.poll().complete());
    }

    /** One decision was enough: the next window at the new parallelism asks for no more. */
    private static void assertSustained(WindowedMetricsProvider windows, ScalingDecision first) {
        awaitWindow(windows, "a complete window at the new parallelism");
        ScalingDecision next =
                new Ds2Policy(POLICY, Clock.systemUTC())
                        .decide(
                                windows.topology(),
                                windows.currentWindow().orElseThrow(),
                                ScalingHistory.empty());
        first.operators()
                .forEach(
                        (id, op) ->
                                assertThat(next.operators().get(id).newParallelism())
                                        .as(next.toString())
                                        .isLessThanOrEqualTo(op.newParallelism()));
    }

    private static void assertDs2Rates(MetricsWindow window) {
        OperatorMetrics sentences = window.metrics(SOURCE).orElseThrow();
        OperatorMetrics split = window.metrics(SPLIT).orElseThrow();
        OperatorMetrics count = window.metrics(COUNT).orElseThrow();
        assertThat(sentences.source().orElseThrow().offeredRate())
                .as("read from the source operator's own counter: the source task counts no input")
                .isCloseTo(200, within(30.0));
        assertThat(split.trueProcessingRate()).as("at most 1 / 6 ms").isBetween(20.0, 167.0);
        assertThat(split.trueOutputRate() / split.trueProcessingRate())
                .isCloseTo(Sentences.WORDS_PER_SENTENCE, within(0.1));
        assertThat(count.trueProcessingRate()).as("at most 1 / 2.2 ms").isBetween(50.0, 455.0);
    }
}
