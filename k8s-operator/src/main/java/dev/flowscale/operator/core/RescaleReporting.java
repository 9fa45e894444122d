package dev.flowscale.operator.core;

import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * Makes each finished rescale visible with the path it took: a Rescaled or RescaleFailed Event
 * whose message names the path (in-place or pod-replacement) and the downtime, and the timer {@code
 * flowscale_controller_rescale_path_downtime_seconds{job, path, result}}. The job's autoscaler loop
 * is not told: it learns the rescale from {@code status.lastRescale}.
 *
 * <p>A rescale is reported once, also when the status write that ends it fails after the API server
 * applied it, or the operator stops in between: the outcome is written with {@code reportPending},
 * any pass reports a pending outcome it finds, and clears the flag after. The Event is named after
 * the outcome, so a report repeated after a failure finds it created (409 AlreadyExists) and
 * records no metric a second time: the metrics follow the one Event.
 */
public final class RescaleReporting {
    public static final String TIMER = MetricName.CONTROLLER_RESCALE_PATH_DOWNTIME.micrometer();
    private final JobEvents events;
    private final MeterRegistry registry;

    public RescaleReporting(JobEvents events, MeterRegistry registry) {
        this.events = events;
        this.registry = registry;
    }

    /** Reports the job's last rescale if status says it is not reported yet, then says it is. */
    public void reportPending(ReconcileStatus pass) {
        RescaleOutcome outcome = pass.status().lastRescale;
        if (outcome == null || !Boolean.TRUE.equals(outcome.reportPending)) {
            return;
        }
        finished(pass.job(), outcome);
        pass.write(
                st -> {
                    if (st.lastRescale != null && sameRescale(st.lastRescale, outcome)) {
                        st.lastRescale.reportPending = null;
                    }
                });
    }

    /** Reports a finished rescale: its Event unless it exists, and with it the metrics. */
    public void finished(StreamJob job, RescaleOutcome outcome) {
        String reason = outcome.succeeded ? JobEvents.RESCALED : JobEvents.RESCALE_FAILED;
        if (!events.once(
                job, eventName(job, outcome), !outcome.succeeded, reason, outcome.message)) {
            return; // reported before a failure or restart
        }
        Duration downtime = Duration.ofNanos((long) (outcome.downtimeSeconds * 1e9));
        Timer.builder(TIMER)
                .description(MetricName.CONTROLLER_RESCALE_PATH_DOWNTIME.description())
                .tags(
                        "job",
                        JobLabel.of(job),
                        "path",
                        outcome.path,
                        "result",
                        outcome.succeeded ? "succeeded" : "failed")
                .register(registry)
                .record(downtime);
    }

    /** Removes the per-path downtime series of a deleted job (label {@code namespace/name}). */
    public void forget(String jobLabel) {
        registry.getMeters().stream()
                .filter(
                        m ->
                                m.getId().getName().equals(TIMER)
                                        && jobLabel.equals(m.getId().getTag("job")))
                .toList()
                .forEach(registry::remove);
    }

    /**
     * The rescale's own Event name: the job's, the time it finished and a hash of what it changed,
     * so that no two rescales share one and every report of one rescale uses the same.
     */
    static String eventName(StreamJob job, RescaleOutcome outcome) {
        long finished = Instant.parse(outcome.time).toEpochMilli();
        int what = Objects.hash(outcome.path, outcome.from, outcome.to, outcome.succeeded);
        return job.getMetadata().getName()
                + ".rescale-"
                + Long.toHexString(finished)
                + "-"
                + Integer.toHexString(what);
    }

    private static boolean sameRescale(RescaleOutcome a, RescaleOutcome b) {
        return Objects.equals(a.time, b.time)
                && Objects.equals(a.from, b.from)
                && Objects.equals(a.to, b.to);
    }

    /** "split 1 -> 2 in-place: down for 0.8 s" and the detail. */
    public static String message(RescaleOutcome outcome, String detail) {
        return String.format(
                Locale.ROOT,
                "%s %s (%s): down for %.1f s; %s",
                outcome.succeeded ? "rescaled" : "rescale failed",
                ParallelismText.summary(outcome.to),
                outcome.path,
                outcome.downtimeSeconds,
                detail);
    }
}
