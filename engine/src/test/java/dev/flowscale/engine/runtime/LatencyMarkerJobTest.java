package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.checkpoint.SnapshotReader;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.window.Aggregates;
import dev.flowscale.engine.window.WindowAssigner;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Latency markers in running jobs: where they go, what they are not, what they record. */
class LatencyMarkerJobTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Duration EVERY_MILLI = Duration.ofMillis(1);

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private JobConfig tracking() {
        return JobConfig.defaults().withMeterRegistry(registry).withLatencyTracking(EVERY_MILLI);
    }

    /** Markers from {@code source} that instance 0 of {@code operator} recorded. */
    private long markers(String operator, String source) {
        Timer timer =
                registry.find(MetricName.MARKER_LATENCY.micrometer())
                        .tags("operator", operator, "instance", "0", "source", source)
                        .timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void aMarkerPassesAWindowThatHoldsEveryRecordAndReachesTheSink() throws Exception {
        Sinks.CollectingSink<Long> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("held");
        job.source(
                        "numbers",
                        Sources.generator(RateProfile.constant(1_000), seq -> seq),
                        WatermarkStrategy.forMonotonousTimestamps((Long seq) -> seq))
                .keyBy(seq -> seq % 4)
                .window(WindowAssigner.tumbling(Duration.ofHours(1)))
                .<Long, Long, Long>aggregate(
                        "hourly",
                        Aggregates.sumOf((Long seq) -> seq),
                        Long.class,
                        (key, window, sum, out) -> out.collect(sum))
                .sink("sink", sink);
        try (RunningJob running = job.start(tracking())) {
            Await.until(TIMEOUT, "markers at the sink", () -> markers("sink", "numbers") >= 20);

            assertThat(markers("hourly", "numbers")).isGreaterThanOrEqualTo(20);
            assertThat(sink.records()).as("the window has fired nothing yet").isEmpty();
            assertThat(running.metrics().find("hourly", 0).recordsIn()).isPositive();
        }
    }

    @Test
    void markersAreNeitherRecordsNorUsefulTime() throws Exception {
        JobBuilder job = JobBuilder.named("idle");
        // On a thread of its own: a chained operator's useful time is a sampled share of its
        // chain's, and the idle source's polls keep a little of it (ChainTiming).
        job.source("numbers", Sources.replayable(null, 100, seq -> seq))
                .map("double", x -> x * 2)
                .disableChaining()
                .sink("sink", Sinks.counting());
        try (RunningJob running = job.start(tracking())) {
            Await.until(TIMEOUT, "the records through", () -> sinkIn(running) == 100);
            Await.until(TIMEOUT, "markers", () -> markers("double", "numbers") >= 10);
            InstanceCounts before = running.metrics().find("double", 0);
            long markersBefore = markers("double", "numbers");

            Await.until(
                    TIMEOUT,
                    "more markers",
                    () -> markers("double", "numbers") >= markersBefore + 50);

            InstanceCounts after = running.metrics().find("double", 0);
            assertThat(after.recordsIn()).isEqualTo(100);
            assertThat(after.recordsOut()).isEqualTo(100);
            assertThat(sinkIn(running)).isEqualTo(100);
            assertThat(after.usefulNanos())
                    .as("useful time while only markers arrived")
                    .isEqualTo(before.usefulNanos());
            assertThat(after.observedNanos()).isGreaterThan(before.observedNanos());
        }
    }

    private static long sinkIn(RunningJob running) {
        return running.metrics().find("sink", 0).recordsIn();
    }

    @Test
    void aTwoSourceJoinKeepsALatencyHistogramPerSource() throws Exception {
        JobBuilder job = JobBuilder.named("joined");
        var strategy = WatermarkStrategy.forMonotonousTimestamps((Long seq) -> seq);
        var left =
                job.source("left", Sources.generator(RateProfile.constant(500), s -> s), strategy)
                        .keyBy(seq -> seq % 8);
        var right =
                job.source("right", Sources.generator(RateProfile.constant(500), s -> s), strategy)
                        .keyBy(seq -> seq % 8);
        left.connect(right)
                .intervalJoin(
                        "join",
                        Duration.ofMillis(-5),
                        Duration.ofMillis(5),
                        (a, b) -> a + b,
                        Long.class,
                        Long.class)
                .sink("sink", Sinks.counting());
        try (RunningJob running = job.start(tracking())) {
            Await.until(
                    TIMEOUT,
                    "markers of both sources at the join and the sink",
                    () ->
                            markers("join", "left") >= 10
                                    && markers("join", "right") >= 10
                                    && markers("sink", "left") >= 10
                                    && markers("sink", "right") >= 10);

            assertThat(
                            registry.find(MetricName.MARKER_LATENCY.micrometer())
                                    .tag("operator", "join")
                                    .timers())
                    .as("one histogram per source")
                    .hasSize(2);
        }
    }

    @Test
    void aSnapshotTakenWhileMarkersFlowHoldsNothingOfThem(@TempDir Path dir) throws Exception {
        JobBuilder job = JobBuilder.named("snapshotted");
        job.source("numbers", Sources.replayable(null, 1_000, seq -> seq))
                .map("double", x -> x * 2)
                .sink("sink", Sinks.counting());
        JobGraph graph = job.build();
        JobConfig config =
                tracking().withCheckpointing(CheckpointConfig.every(Duration.ofHours(1), dir));
        try (RunningJob running = RunningJob.start(graph, config)) {
            Await.until(TIMEOUT, "markers", () -> markers("sink", "numbers") >= 10);
            Path savepoint = running.triggerSavepoint().get();

            RestoredState restored = SnapshotReader.read(savepoint, graph);
            for (String op : new String[] {"double", "sink"}) {
                RestoredState.InstanceRestore instance = restored.instance(op, 0);
                assertThat(instance.operatorLists()).as(op + " operator state").isEmpty();
                assertThat(instance.keyGroups()).as(op + " keyed state").isEmpty();
            }
            assertThat(restored.instance("numbers", 0).operatorLists()).isEmpty();
        }
    }
}
