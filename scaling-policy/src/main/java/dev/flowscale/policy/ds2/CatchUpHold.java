package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.SourceMetrics;
import java.util.Optional;

/**
 * While catch-up drains a backlog, scale-downs wait: lowering parallelism mid-drain would stop
 * the rescale's own downtime backlog from draining in time and restart the catch-up clock. A
 * backlog counts as drained when it is at most one second of the source's offered rate.
 */
final class CatchUpHold {

    private CatchUpHold() {
    }

    /** Why scale-downs must wait, if some source is still draining its backlog. */
    static Optional<String> draining(JobTopology topology, MetricsWindow window, PolicyConfig config) {
        if (config.catchUpDuration().isZero()) {
            return Optional.empty();
        }
        for (String id : topology.sources()) {
            Optional<SourceMetrics> s = window.metrics(id).flatMap(m -> m.source());
            if (s.isPresent() && s.get().backlogRecords() > Math.max(1, s.get().offeredRate())) {
                return Optional.of(String.format("scale-down held: source '%s' is still draining a backlog of %.0f"
                        + " records", id, s.get().backlogRecords()));
            }
        }
        return Optional.empty();
    }

    static OperatorDecision hold(OperatorDecision op, String why) {
        return op.newParallelism() < op.currentParallelism() ? op.withNewParallelism(op.currentParallelism(), why) : op;
    }
}
