package dev.flowscale.engine.runtime;

import dev.flowscale.runner.api.CheckpointStatus;
import dev.flowscale.runner.api.MetricName;
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
import java.util.function.ToDoubleFunction;

/**
 * Counts a job's snapshot outcomes for its whole life (across restarts and rescales), logs one line
 * per failure, and exports {@code flowscale_checkpoints_completed_total}, {@code
 * flowscale_checkpoints_failed_total}, {@code flowscale_checkpoints_consecutive_failures} and
 * {@code flowscale_checkpoint_last_completed_age_seconds} (NaN before the first).
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
    private Instant failingSince;
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
        failingSince = null;
        lastCompletedId = id;
        lastCompletedAt = clock.instant();
        lastCompletedPath = dir;
    }

    /** Records and logs a failure; returns the periodic checkpoints failed in a row. */
    synchronized int failed(String what, boolean periodic, Throwable cause) {
        failed++;
        lastFailureAt = clock.instant();
        if (periodic) {
            consecutiveFailures++;
            failingSince = failingSince == null ? lastFailureAt : failingSince;
        }
        lastFailure = cause.getMessage();
        log.accept(
                what
                        + " of job '"
                        + job
                        + "' failed: "
                        + lastFailure
                        + (periodic ? " (" + consecutiveFailures + " in a row)" : ""));
        return consecutiveFailures;
    }

    /** A restart gives the new run a fresh count of failures in a row. */
    synchronized void resetConsecutive() {
        consecutiveFailures = 0;
        failingSince = null;
    }

    /** How long periodic checkpoints have been failing, from the first failure in a row. */
    synchronized Duration failingFor() {
        return failingSince == null
                ? Duration.ZERO
                : Duration.between(failingSince, clock.instant());
    }

    synchronized CheckpointStatus status() {
        return new CheckpointStatus(
                completed,
                failed,
                consecutiveFailures,
                lastCompletedId,
                lastCompletedAt == null ? null : lastCompletedAt.toString(),
                lastCompletedPath == null ? null : lastCompletedPath.toString(),
                lastFailureAt == null ? null : lastFailureAt.toString(),
                lastFailure);
    }

    private synchronized double ageSeconds() {
        return lastCompletedAt == null
                ? Double.NaN
                : Duration.between(lastCompletedAt, clock.instant()).toNanos() / 1e9;
    }

    void bind(MeterRegistry to) {
        registry = to;
        Tags tags = Tags.of("job", job);
        meters.add(
                counter(MetricName.CHECKPOINTS_COMPLETED, s -> s.status().completed())
                        .tags(tags)
                        .register(to));
        meters.add(
                counter(MetricName.CHECKPOINTS_FAILED, s -> s.status().failed())
                        .tags(tags)
                        .register(to));
        meters.add(
                gauge(
                                MetricName.CHECKPOINTS_CONSECUTIVE_FAILURES,
                                s -> s.status().consecutiveFailures())
                        .tags(tags)
                        .register(to));
        meters.add(
                gauge(MetricName.CHECKPOINT_LAST_COMPLETED_AGE, CheckpointStats::ageSeconds)
                        .tags(tags)
                        .register(to));
    }

    private FunctionCounter.Builder<CheckpointStats> counter(
            MetricName name, ToDoubleFunction<CheckpointStats> read) {
        return FunctionCounter.builder(name.micrometer(), this, read)
                .baseUnit(name.unit())
                .description(name.description());
    }

    private Gauge.Builder<CheckpointStats> gauge(
            MetricName name, ToDoubleFunction<CheckpointStats> read) {
        return Gauge.builder(name.micrometer(), this, read)
                .baseUnit(name.unit())
                .description(name.description());
    }

    @Override
    public void close() {
        if (registry != null) {
            meters.forEach(registry::remove);
        }
    }
}
