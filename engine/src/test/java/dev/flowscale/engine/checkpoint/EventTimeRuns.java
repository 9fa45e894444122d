package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RescaleResult;
import dev.flowscale.engine.runtime.RestartStrategy;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Steps of the exactly-once tests of event-time jobs: their configuration, a failure, rescales, a
 * drained end.
 */
final class EventTimeRuns {
    /** Longer than the sources' watermark interval, so that the last watermark has gone through. */
    private static final Duration QUIET = Duration.ofMillis(500);

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

    static void awaitRestartAfterFailure(RunningJob job) {
        Await.until(
                Duration.ofSeconds(20),
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
            RescaleResult result = job.rescale(target, Duration.ofSeconds(30));
            assertThat(result.after()).containsAllEntriesOf(target);
        }
    }

    /**
     * Waits until the sources' schedule ({@code scheduleMillis} from {@code startedAt}) has run out
     * and they owe nothing (so they emitted every record), nothing is queued, and what {@code
     * results} took in stopped moving over {@link #QUIET}.
     */
    static void awaitDrained(
            RunningJob job,
            long startedAt,
            long scheduleMillis,
            List<String> sources,
            String results) {
        long scheduleNanos = Duration.ofMillis(scheduleMillis + 200).toNanos();
        AtomicLong taken = new AtomicLong(-1);
        AtomicLong sampledAt = new AtomicLong(System.nanoTime());
        Await.until(
                Duration.ofSeconds(60),
                "every record emitted and its results taken in",
                () -> {
                    if (System.nanoTime() - sampledAt.get() < QUIET.toNanos()) {
                        return false;
                    }
                    long now = recordsIn(job, results);
                    boolean quiet = now == taken.getAndSet(now);
                    sampledAt.set(System.nanoTime());
                    return quiet
                            && System.nanoTime() - startedAt > scheduleNanos
                            && sources.stream().allMatch(s -> backlog(job, s) == 0)
                            && job.queuedRecords() == 0;
                });
    }

    private static long recordsIn(RunningJob job, String operator) {
        return job.metrics().instancesOf(operator).stream().mapToLong(i -> i.recordsIn()).sum();
    }

    private static long backlog(RunningJob job, String source) {
        return job.metrics().instancesOf(source).stream().mapToLong(i -> i.backlog()).sum();
    }
}
