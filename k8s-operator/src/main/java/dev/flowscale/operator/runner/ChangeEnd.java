package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.core.RescaleReporting;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Ends the change in {@code status.pending} in one status write: its outcome in {@code
 * status.lastRescale} (unless it changed no parallelism), the parallelism that runs, the loop's
 * request settled, a scale-up the scheduler could not place blocked for its backoff; then its Event
 * and metrics ({@link RescaleReporting#reportPending}).
 */
final class ChangeEnd {
    private final ReconcileStatus pass;
    private final ExecutorTools tools;

    ChangeEnd(ReconcileStatus pass, ExecutorTools tools) {
        this.pass = pass;
        this.tools = tools;
    }

    void finish(
            boolean succeeded, Map<String, Integer> parallelism, Duration downtime, String detail) {
        PendingChange c = pass.status().pending;
        RescaleOutcome outcome = outcome(c, succeeded, downtime, detail);
        pass.write(
                st -> {
                    st.parallelism = new TreeMap<>(parallelism);
                    st.lastRescale = c.from.equals(c.to) ? st.lastRescale : outcome;
                    st.pending = null;
                    if (c.request != null) {
                        st.settledRequest = c.request;
                    }
                    if (c.unschedulable != null) {
                        ScaleUpBackoff.block(
                                st, c, pass.job().getSpec().rescaling, tools.clock().instant());
                    } else if (!succeeded && "autoscaler".equals(c.reason)) {
                        st.desiredParallelism.putAll(
                                parallelism); // the autoscaler decides again from what runs
                    } else if (succeeded) {
                        st.blockedScaleUp = null;
                    }
                    if (succeeded
                            && st.savepointFailure != null
                            && !Objects.equals(
                                    st.savepointFailure.fallbackCheckpoint, c.savepoint)) {
                        st.savepointFailure = null; // a later change took its savepoint
                    }
                });
        if (c.unschedulable != null) {
            tools.events()
                    .warning(
                            pass.job(),
                            JobEvents.SCALING_BLOCKED,
                            ScaleUpBackoff.message(pass.status().blockedScaleUp));
        }
        tools.reporting().reportPending(pass);
    }

    private RescaleOutcome outcome(
            PendingChange c, boolean succeeded, Duration downtime, String detail) {
        var outcome = new RescaleOutcome();
        outcome.time = tools.clock().instant().toString();
        outcome.path = c.path;
        outcome.downtimeSeconds = downtime.toNanos() / 1e9;
        outcome.succeeded = succeeded;
        outcome.from = c.from;
        outcome.to = c.to;
        outcome.generation = c.generation;
        outcome.message = RescaleReporting.message(outcome, detail);
        outcome.reportPending = c.from.equals(c.to) ? null : true;
        return outcome;
    }
}
