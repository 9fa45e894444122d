package dev.flowscale.operator;

import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;

/**
 * Makes each finished rescale visible with the path it took: a Rescaled or RescaleFailed Event
 * whose message names the path (in-place or pod-replacement) and the downtime, and the timer {@code
 * flowscale_controller_rescale_path_downtime_seconds{job, path, result}}; the job's autoscaler loop
 * is told too (its own rescale metrics, and the end of the rescale it asked for).
 */
final class RescaleReporting {
    static final String TIMER = MetricName.CONTROLLER_RESCALE_PATH_DOWNTIME.micrometer();
    private final JobEvents events;
    private final MeterRegistry registry;
    private final JobAutoscalers loops;

    RescaleReporting(JobEvents events, MeterRegistry registry, JobAutoscalers loops) {
        this.events = events;
        this.registry = registry;
        this.loops = loops;
    }

    void finished(StreamJob job, RescaleOutcome outcome) {
        if (outcome.succeeded) {
            events.normal(job, JobEvents.RESCALED, outcome.message);
        } else {
            events.warning(job, JobEvents.RESCALE_FAILED, outcome.message);
        }
        Duration downtime = Duration.ofNanos((long) (outcome.downtimeSeconds * 1e9));
        Timer.builder(TIMER)
                .description(MetricName.CONTROLLER_RESCALE_PATH_DOWNTIME.description())
                .tags(
                        "job",
                        RunnerDeployment.jobLabel(job),
                        "path",
                        outcome.path,
                        "result",
                        outcome.succeeded ? "succeeded" : "failed")
                .register(registry)
                .record(downtime);
        loops.rescaled(job, downtime, outcome.succeeded);
    }

    /** "split 1 -> 2 in-place: down for 0.8 s" and the detail. */
    static String message(RescaleOutcome outcome, String detail) {
        return String.format(
                Locale.ROOT,
                "%s %s (%s): down for %.1f s; %s",
                outcome.succeeded ? "rescaled" : "rescale failed",
                StreamJobReconciler.summary(outcome.to),
                outcome.path,
                outcome.downtimeSeconds,
                detail);
    }
}
