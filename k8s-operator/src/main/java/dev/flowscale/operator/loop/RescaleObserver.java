package dev.flowscale.operator.loop;

import dev.flowscale.autoscaler.export.ControllerMetrics;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJobStatus;
import java.time.Duration;
import java.util.Objects;

/**
 * Learns each finished rescale of a job from {@code status.lastRescale}, as the reconciler (or a
 * Flink target's realizer) recorded it, and counts it once in the loop's rescale metrics with its
 * measured downtime. The rescale already in status when the loop started was counted by an earlier
 * loop, so it is not counted again.
 */
final class RescaleObserver {
    private final ControllerMetrics metrics;
    private final String jobLabel;
    private String seen;

    RescaleObserver(ControllerMetrics metrics, String jobLabel, StreamJobStatus atStart) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.jobLabel = Objects.requireNonNull(jobLabel, "jobLabel");
        this.seen = finishedAt(atStart);
    }

    synchronized void observe(StreamJobStatus status) {
        String finished = finishedAt(status);
        if (finished == null || finished.equals(seen)) {
            return;
        }
        seen = finished;
        RescaleOutcome outcome = status.lastRescale;
        metrics.rescaleFinished(
                jobLabel,
                Duration.ofNanos((long) (outcome.downtimeSeconds * 1e9)),
                outcome.succeeded);
    }

    private static String finishedAt(StreamJobStatus status) {
        return status == null || status.lastRescale == null ? null : status.lastRescale.time;
    }
}
