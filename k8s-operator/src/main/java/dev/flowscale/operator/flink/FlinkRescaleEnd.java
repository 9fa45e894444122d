package dev.flowscale.operator.flink;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.policy.api.RescaleRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeMap;

/**
 * Ends a session target's rescale in one status write: {@code status.lastRescale} (path, downtime
 * from {@code pending.started}, result), {@code pending} cleared, the loop's request settled, the
 * run that now carries the job in {@code status.flinkJob}, condition Scaling False; then its Event
 * and metrics through {@link RescaleReporting} (reported by the next pass or operator if this one
 * stops in between).
 */
final class FlinkRescaleEnd {
    private final RescaleReporting reporting;

    FlinkRescaleEnd(RescaleReporting reporting) {
        this.reporting = reporting;
    }

    /**
     * @param run the Flink job id that runs the job now; null when unchanged or unknown
     */
    void finish(FlinkSessionStep step, boolean succeeded, String detail, String run) {
        PendingChange p = step.pending();
        RescaleOutcome outcome = outcome(step, p, succeeded, detail);
        String target = FlinkTargetJob.targetKey(step.job().getSpec().flink);
        step.pass()
                .write(
                        status -> {
                            status.pending = null;
                            status.lastRescale = outcome;
                            status.settledRequest = p.request;
                            if (run != null) {
                                status.flinkJob = run;
                                status.flinkJobOf = target;
                            }
                            var runs = succeeded ? outcome.to : outcome.from;
                            status.parallelism = new TreeMap<>(runs);
                            status.parallelismSummary = ParallelismText.summary(runs);
                            if (!succeeded) { // the loop decides again from what runs
                                status.desiredParallelism.putAll(outcome.from);
                            }
                            status.phase = JobPhase.Running;
                            Conditions.set(
                                    status,
                                    Conditions.SCALING,
                                    false,
                                    succeeded ? "Rescaled" : "RescaleFailed",
                                    outcome.message,
                                    status.observedGeneration,
                                    step.clock().instant());
                        });
        reporting.reportPending(step.pass());
    }

    private static RescaleOutcome outcome(
            FlinkSessionStep step, PendingChange p, boolean succeeded, String detail) {
        Instant now = step.clock().instant();
        RescaleOutcome outcome = new RescaleOutcome();
        outcome.time = now.toString();
        outcome.path = p.path;
        outcome.downtimeSeconds = Duration.between(Instant.parse(p.started), now).toNanos() / 1e9;
        outcome.succeeded = succeeded;
        outcome.from = new TreeMap<>(p.from);
        outcome.to = new TreeMap<>(p.to);
        outcome.generation = p.generation;
        outcome.message = RescaleReporting.message(outcome, detail);
        outcome.reportPending = true;
        if (succeeded && RescaleRecord.IN_PLACE.equals(p.path)) {
            // Flink restarted the job from a checkpoint: at most the latest before the change;
            // later passes look for the one it restored ({@link FlinkInputCost}).
            outcome.inputCostSeconds = FlinkInputCost.atMost(p, now);
            outcome.inputCostPending = Boolean.TRUE;
        }
        return outcome;
    }
}
