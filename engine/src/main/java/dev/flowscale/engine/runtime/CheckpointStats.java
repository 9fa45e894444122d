package dev.flowscale.engine.runtime;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Counts a job's snapshot outcomes for its whole life (across restarts and rescales), logs one
 * line per failure, and exports {@code flowscale_checkpoints_completed_total},
 * {@code flowscale_checkpoints_failed_total}, {@code flowscale_checkpoints_consecutive_failures}
 * and {@code flowscale_checkpoint_last_completed_age_seconds} (NaN before the first).
 */
final class CheckpointStats implements AutoCloseable {
    private final String job;
    private final Clock clock;
    private final Consumer<String> log;
    private final List<Meter> meters = new ArrayList<>();
    private MeterRegistry registry;
    private long completed;
    private long failed;
    private int consecutiveFailures;
    private Long lastCompletedId;
    private Instant lastCompletedAt;
    private Path lastCompletedPath;
    private Instant lastFailureAt;
    private String lastFailure;

    CheckpointStats(String job, Clock clock, Consumer<String> log) {
        this.job = job;
        this.clock = clock;
        this.log = log;
    }

    synchronized void completed(long id, Path dir) {
        completed++;
        consecutiveFailures = 0;
        lastCompletedId = id;
        lastCompletedAt = clock.instant();
        lastCompletedPath = dir;
    }

    /** Records and logs a failure; returns the periodic checkpoints failed in a row. */
    synchronized int failed(String what, boolean periodic, Throwable cause) {
        failed++;
        if (periodic) {
            consecutiveFailures++;
        }
        lastFailureAt = clock.instant();
        lastFailure = cause.getMessage();
        log.accept(what + " of job '" + job + "' failed: " + lastFailure
                + (periodic ? " (" + consecutiveFailures + " in a row)" : ""));
        return consecutiveFailures;
    }

    /** A restart gives the new run a fresh count of failures in a row. */
    synchronized void resetConsecutive() {
        consecutiveFailures = 0;
    }

    synchronized CheckpointStatus status() {
        return new CheckpointStatus(completed, failed, consecutiveFailures, lastCompletedId,
                lastCompletedAt == null ? null : lastCompletedAt.toString(),
                lastCompletedPath == null ? null : lastCompletedPath.toString(),
                lastFailureAt == null ? null : lastFailureAt.toString(), lastFailure);
    }

    private synchronized double ageSeconds() {
        return lastCompletedAt == null ? Double.NaN
                : Duration.between(lastCompletedAt, clock.instant()).toNanos() / 1e9;
    }

    void bind(MeterRegistry to) {
        registry = to;
        Tags tags = Tags.of("job", job);
        meters.add(FunctionCounter.builder("flowscale.checkpoints.completed", this, s -> s.status().completed())
                .tags(tags).description("Checkpoints and savepoints completed").register(to));
        meters.add(FunctionCounter.builder("flowscale.checkpoints.failed", this, s -> s.status().failed())
                .tags(tags).description("Checkpoints and savepoints that failed").register(to));
        meters.add(Gauge.builder("flowscale.checkpoints.consecutive.failures", this,
                s -> s.status().consecutiveFailures()).tags(tags)
                .description("Periodic checkpoints failed in a row").register(to));
        meters.add(Gauge.builder("flowscale.checkpoint.last.completed.age", this, CheckpointStats::ageSeconds)
                .baseUnit("seconds").tags(tags).description("Time since the last completed snapshot").register(to));
    }

    @Override
    public void close() {
        if (registry != null) {
            meters.forEach(registry::remove);
        }
    }
}
