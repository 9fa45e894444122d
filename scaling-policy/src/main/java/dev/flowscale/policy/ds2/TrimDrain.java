package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The spare a trimmed configuration keeps to drain the backlog of its own downtime by the deadline
 * the running check applies to any backlog: the catch-up time plus one window. A trim sized on the
 * plan's per-operator estimate can leave an operator (a hot key's busiest instance, a curve that
 * grows less than linearly) short of that spare; such an operator is lowered only as far as keeps
 * it, so the rest of the trim still happens rather than being refused whole.
 */
final class TrimDrain {

    private final double deadlineSeconds;
    private final double downtimeSeconds;
    private final Capacities capacities;

    TrimDrain(
            PolicyConfig config,
            double windowSeconds,
            double downtimeSeconds,
            Capacities capacities) {
        this.deadlineSeconds = config.catchUpSeconds() + windowSeconds;
        this.downtimeSeconds = downtimeSeconds;
        this.capacities = capacities;
    }

    /** The seconds within which the trimmed configuration must drain its own downtime. */
    double deadlineSeconds() {
        return deadlineSeconds;
    }

    /** The seconds the configuration with the given headroom takes to drain its own downtime. */
    double seconds(double headroom) {
        return headroom > 1 ? downtimeSeconds / (headroom - 1) : Double.POSITIVE_INFINITY;
    }

    /**
     * Every operator the trim lowers, lowered no further than the smallest parallelism that keeps
     * the spare to drain the trim's downtime by the deadline (its running parallelism where none
     * below does).
     */
    List<OperatorDecision> fit(
            List<OperatorDecision> ops, Map<String, Ds2Formula.Estimate> required) {
        double needed = 1 + downtimeSeconds / deadlineSeconds;
        List<OperatorDecision> out = new ArrayList<>(ops.size());
        for (OperatorDecision op : ops) {
            double rate = required.get(op.operatorId()).targetInputRate();
            boolean lowered = op.newParallelism() < op.currentParallelism();
            out.add(
                    lowered && rate > 0 && op.capacityPerInstance() > 0
                            ? fit(op, rate * needed)
                            : op);
        }
        return out;
    }

    private OperatorDecision fit(OperatorDecision op, double capacity) {
        int p = op.newParallelism();
        while (p < op.currentParallelism() && carries(op, p) < capacity * (1 - 1e-9)) {
            p++;
        }
        if (p == op.newParallelism()) {
            return op;
        }
        return op.withNewParallelism(
                p,
                String.format(
                        Locale.ROOT,
                        "%s %d: at %d it would lack the spare to drain the trim's downtime within"
                                + " %.0f s (the catch-up time plus one window)",
                        p == op.currentParallelism() ? "kept at" : "trimmed only to",
                        p,
                        op.newParallelism(),
                        deadlineSeconds));
    }

    private double carries(OperatorDecision op, int p) {
        return capacities.at(op.operatorId(), p, op.capacityPerInstance());
    }
}
