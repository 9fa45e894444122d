package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The spare a trimmed configuration keeps to drain the backlog of its own downtime within the
 * catch-up time. A trim sized on the plan's per-operator estimate can leave an operator (a hot
 * key's busiest instance taking more key groups, a curve that grows less than linearly) short of
 * that spare; such an operator is lowered only as far as keeps it, or kept where it runs, so the
 * rest of the trim still happens rather than being refused whole. Where the bottleneck of the
 * trimmed configuration is an operator the trim keeps where it runs (the plan raises what it can,
 * so one held at its bound or its most capable parallelism), no configuration drains sooner: the
 * trim is then refused only if its drain would exceed the catch-up time plus one window, the
 * deadline past which the running check asks for a scale-up.
 */
final class TrimDrain {

    private final double catchUpSeconds;
    private final double windowSeconds;
    private final double downtimeSeconds;
    private final Capacities capacities;

    TrimDrain(
            PolicyConfig config,
            double windowSeconds,
            double downtimeSeconds,
            Capacities capacities) {
        this.catchUpSeconds = config.catchUpSeconds();
        this.windowSeconds = windowSeconds;
        this.downtimeSeconds = downtimeSeconds;
        this.capacities = capacities;
    }

    /**
     * Every operator the trim lowers, lowered no further than the smallest parallelism that keeps
     * the spare to drain the trim's downtime within the catch-up time (its running parallelism
     * where none below does).
     */
    List<OperatorDecision> fit(
            List<OperatorDecision> ops, Map<String, Ds2Formula.Estimate> required) {
        double needed = 1 + downtimeSeconds / catchUpSeconds;
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

    /**
     * Why the trimmed configuration cannot drain its own downtime in time, if it cannot: beyond the
     * catch-up time, or beyond one window more where its bottleneck is an operator it keeps.
     */
    Optional<String> tooTight(
            List<OperatorDecision> ops, Map<String, Ds2Formula.Estimate> required) {
        OperatorDecision bottleneck = null;
        double headroom = Double.POSITIVE_INFINITY;
        for (OperatorDecision op : ops) {
            double rate = required.get(op.operatorId()).targetInputRate();
            if (rate > 0
                    && op.capacityPerInstance() > 0
                    && carries(op, op.newParallelism()) / rate < headroom) {
                headroom = carries(op, op.newParallelism()) / rate;
                bottleneck = op;
            }
        }
        double drain = headroom > 1 ? downtimeSeconds / (headroom - 1) : Double.POSITIVE_INFINITY;
        boolean kept = bottleneck != null && !bottleneck.changes();
        double deadline = catchUpSeconds + (kept ? windowSeconds : 0);
        if (drain <= deadline * (1 + 1e-9)) {
            return Optional.empty();
        }
        return Optional.of(
                String.format(
                        Locale.ROOT,
                        Trim.TOO_TIGHT
                                + "the trimmed configuration would need %s to drain its own downtime"
                                + " (catch-up time %d s%s)",
                        Double.isInfinite(drain) ? "forever" : String.format("%.0f s", drain),
                        Math.round(catchUpSeconds),
                        kept ? ", one window more where its bottleneck is kept" : ""));
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
                                + " the %.0f s catch-up time",
                        p == op.currentParallelism() ? "kept at" : "trimmed only to",
                        p,
                        op.newParallelism(),
                        catchUpSeconds));
    }

    private double carries(OperatorDecision op, int p) {
        return capacities.at(op.operatorId(), p, op.capacityPerInstance());
    }
}
