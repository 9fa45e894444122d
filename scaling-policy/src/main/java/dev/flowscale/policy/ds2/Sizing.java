package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ParallelismBounds;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a DS2 estimate into a recommended parallelism: headroom (target utilization), optional
 * key-skew correction, min and max bounds, the operator's max parallelism, and key-group alignment, each explained.
 */
final class Sizing {

    private Sizing() {
    }

    static OperatorDecision recommend(OperatorSpec op, OperatorMetrics m, Ds2Formula.Estimate e, SourceTarget source,
            PolicyConfig c) {
        List<String> reasons = new ArrayList<>();
        if (source != null) {
            reasons.add(source.explain(c));
        }
        int p = e.parallelism(c.targetUtilization(), c.roundingTolerance());
        if (p == 0) {
            p = op.parallelism();
            reasons.add("capacity unknown: the source emitted nothing in the window (backpressured); kept at " + p);
        } else {
            reasons.add(explainDs2(e, p, c.targetUtilization()));
        }
        if (c.skewCorrection()) {
            p = SkewCorrection.correct(m, e, p, c.targetUtilization(), reasons);
        }
        p = bound(op, p, c.boundsOf(op.id()), reasons);
        if (c.alignToKeyGroups()) {
            p = align(op, p, c, reasons);
        }
        double cap = e.capacityPerInstance();
        double utilization = cap > 0 ? e.targetInputRate() / (p * cap) : 0;
        double share = source == null ? 0 : source.catchUpShare();
        return new OperatorDecision(op.id(), op.parallelism(), p, p, e.targetInputRate(), cap, utilization,
                share, reasons);
    }

    private static String explainDs2(Ds2Formula.Estimate e, int p, double utilization) {
        if (e.targetInputRate() == 0) {
            return "DS2: no input expected, minimum parallelism 1";
        }
        String capacity = utilization == 1.0
                ? String.format("capacity %.1f rec/s per instance", e.capacityPerInstance())
                : String.format("(capacity %.1f rec/s per instance × target utilization %.2f)",
                        e.capacityPerInstance(), utilization);
        return String.format("DS2: target %.1f rec/s / %s = %d", e.targetInputRate(), capacity, p);
    }

    private static int bound(OperatorSpec op, int p, ParallelismBounds b, List<String> reasons) {
        int upper = Math.min(b.max(), op.maxParallelism());
        int lower = Math.min(b.min(), upper);
        if (p < lower) {
            reasons.add("raised to min parallelism " + lower);
            return lower;
        }
        if (p > upper) {
            reasons.add(upper == op.maxParallelism() && b.max() > upper
                    ? "clamped to max parallelism " + upper + " (the operator's key groups)"
                    : "clamped to max parallelism " + upper);
            return upper;
        }
        return p;
    }

    private static int align(OperatorSpec op, int p, PolicyConfig c, List<String> reasons) {
        int upper = Math.min(c.boundsOf(op.id()).max(), op.maxParallelism());
        int q = KeyGroupAlignment.align(p, op.maxParallelism(), c.alignmentMaxIncrease(), upper);
        if (q != p) {
            reasons.add("aligned to " + q + " to divide " + op.maxParallelism() + " key groups evenly (+"
                    + (q - p) + ")");
        }
        return q;
    }
}
