package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RestartStrategy;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Steps of the exactly-once tests of event-time jobs: their configuration, a failure, rescales, a
 * drained end.
 */
final class EventTimeRuns {
    private EventTimeRuns() {}

    /**
     * Small batches, a checkpoint every 150 ms into {@code dir} and up to 3 restarts: a failure
     * replays only a little, and a rescale finds a recent checkpoint's worth of state in flight.
     */
    static JobConfig config(Path dir) {
        return JobConfig.defaults()
                .withBatchSize(64)
                .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(150), dir))
                .withRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100)));
    }

    /**
     * {@link #config} with latency markers every 10 ms into {@code registry}: markers that often
     * must not disturb alignment or exactly-once.
     */
    static JobConfig checkpointedWithMarkers(Path dir, MeterRegistry registry) {
        return config(dir).withMeterRegistry(registry).withLatencyTracking(Duration.ofMillis(10));
    }

    /** The run's operators recorded latency markers. */
    static void assertMarkersArrived(MeterRegistry registry) {
        assertThat(registry.find(MetricName.MARKER_LATENCY.micrometer()).timers())
                .as("latency histograms of the last run")
                .anySatisfy(t -> assertThat(t.count()).isPositive());
    }

    /**
     * Waits for the injected failure and the restart after it. The failure comes when the job has
     * reached a given record, which on RocksDB and a loaded machine took 17 s of the 20 this once
     * allowed: the deadline is generous, the wait ends as soon as the restart is seen.
     */
    static void awaitRestartAfterFailure(RunningJob job) {
        Await.until(
                Duration.ofSeconds(60),
                "a restart after the injected failure",
                () -> job.restarts() > 0 && job.status() == RunningJob.Status.RUNNING);
    }

    /** Rescales every operator to a random parallelism from 1 to 4, {@code times} times. */
    static void rescaleAtRandom(RunningJob job, Random random, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            Map<String, Integer> target = new LinkedHashMap<>();
            for (String op : job.graph().parallelism().keySet()) {
                target.put(op, 1 + random.nextInt(4));
            }
            RescaleView result = job.rescale(target, Duration.ofSeconds(30));
            assertThat(result.after()).containsAllEntriesOf(target);
        }
    }

    /**
     * Waits until {@code results} has processed the final watermark ({@link Long#MAX_VALUE}): every
     * source has read all its splits to their end, and all they sent, with every window and timer
     * it fired, has gone through {@code results}. Unlike a quiet spell, this cannot come true early
     * on a slow machine. The bound only ends a run that never drains: a machine loaded many times
     * its cores takes minutes to replay what a quiet one replays in seconds.
     */
    static void awaitDrained(RunningJob job, String results) {
        Await.until(
                Duration.ofMinutes(5),
                "the final watermark processed by '" + results + "'",
                () ->
                        job.status() == RunningJob.Status.RUNNING
                                && job.processedWatermark(results) == Long.MAX_VALUE);
    }
}
