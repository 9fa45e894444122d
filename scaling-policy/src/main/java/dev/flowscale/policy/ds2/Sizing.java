package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ParallelismBounds;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.Reasons;
import dev.flowscale.policy.model.IneffectiveScaleUp;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns a DS2 estimate into a recommended parallelism: headroom (target utilization), optional
 * key-skew correction, min and max bounds, the operator's max parallelism, and key-group alignment,
 * each explained.
 */
final class Sizing {

    private Sizing() {}

    /**
     * The parallelism that sustains the base target at the target utilization and the planned
     * target (base plus catch-up) at full capacity, whichever needs more, both raised by {@code
     * margin} (a trim keeps the noise tolerance in hand, so noise cannot trim it again); rounded
     * up, so never below what sustains the target. When no parallelism carries the planned target,
     * a plan that drains a backlog ({@code drain}) takes the most capable parallelism, where the
     * backlog drains fastest, and any other plan stops where more instances stop helping: the trim
     * after the drain returns to it.
     */
    static OperatorDecision recommend(
            OperatorSpec op,
            OperatorMetrics m,
            Ds2Formula.Estimate base,
            Ds2Formula.Estimate plan,
            SourceTarget source,
            PolicyConfig c,
            double margin,
            boolean drain,
            Capacities capacities) {
        Reasons reasons = new Reasons();
        if (source != null) {
            reasons.addLater(() -> source.explain(c));
        }
        double cap = plan.capacityPerInstance();
        int upper = op.keyGroups();
        double required =
                margin
                        * Math.max(
                                base.targetInputRate() / c.targetUtilization(),
                                plan.targetInputRate());
        int p;
        if (plan.targetInputRate() == 0) {
            p = 1;
            reasons.add("DS2: no input expected, minimum parallelism 1");
        } else if (cap == 0) {
            p = op.parallelism();
            reasons.add(
                    "capacity unknown: it processed nothing in the window (held back upstream or"
                            + " backpressured); kept at "
                            + p);
        } else {
            OptionalInt fitted = capacities.smallest(op.id(), required, upper, cap);
            p =
                    fitted.orElseGet(
                            () ->
                                    drainable(op.id(), base, upper, cap, drain, capacities)
                                            ? drainsInTime(
                                                    op.id(),
                                                    base,
                                                    plan,
                                                    margin,
                                                    upper,
                                                    cap,
                                                    capacities)
                                            : highestUseful(op.id(), base, upper, cap, capacities));
            int sized = p;
            reasons.addLater(
                    () ->
                            explainDs2(
                                    base,
                                    plan,
                                    sized,
                                    c.targetUtilization(),
                                    capacities.explain(op.id())));
            capacities
                    .hotSpot(op.id())
                    .ifPresent(hot -> reasons.add(HotKeys.explain(m, op, hot, base, c)));
            if (fitted.isEmpty()) {
                reasons.add(
                        HotKeys.noMoreHelp(
                                op.id(),
                                required,
                                upper,
                                p,
                                capacities.at(op.id(), p, cap),
                                capacities.hotSpot(op.id())));
                if (drainable(op.id(), base, upper, cap, drain, capacities)) {
                    reasons.add(
                            "sized to drain the backlog within the whole catch-up time, or at its"
                                    + " most capable parallelism where none does; a trim returns it to"
                                    + " where more instances stop helping");
                }
            }
        }
        p = bound(op, p, c.boundsOf(op.id()), reasons);
        if (c.alignToKeyGroups()) {
            p = align(op, p, c, reasons);
        }
        Optional<IneffectiveScaleUp.Verdict> ineffective = capacities.ineffective(op.id());
        if (ineffective.isPresent() && p > ineffective.get().holdAt()) {
            p = ineffective.get().holdAt();
            reasons.add(ineffective.get().reason());
        }
        double capacity = capacities.at(op.id(), p, cap);
        double utilization = capacity > 0 ? plan.targetInputRate() / capacity : 0;
        double share = source == null ? 0 : source.catchUpShare();
        return new OperatorDecision(
                op.id(),
                op.parallelism(),
                p,
                p,
                plan.targetInputRate(),
                cap,
                utilization,
                share,
                reasons);
    }

    /**
     * Whether a drain plan takes the most capable parallelism: only where it carries more than the
     * base rate, so that the backlog drains at all; where no parallelism does, more instances will
     * not help and the operator is capped where they stop helping, not run away to its bound.
     */
    private static boolean drainable(
            String id,
            Ds2Formula.Estimate base,
            int upper,
            double cap,
            boolean drain,
            Capacities capacities) {
        return drain
                && capacities.at(id, capacities.mostCapable(id, upper, cap), cap)
                        > base.targetInputRate();
    }

    /**
     * Where a plan that does not drain puts an operator that cannot carry its planned rate: where
     * more instances stop helping, unless no parallelism carries even its base rate and it has no
     * hot spot; then every instance up to its most capable parallelism carries more of what it
     * falls short of (a linear or power-law curve held at its bound), and stopping short would
     * leave it further below its need for good.
     */
    private static int highestUseful(
            String id, Ds2Formula.Estimate base, int upper, double cap, Capacities capacities) {
        int best = capacities.mostCapable(id, upper, cap);
        return capacities.hotSpot(id).isEmpty()
                        && capacities.at(id, best, cap) < base.targetInputRate()
                ? best
                : capacities.mostUseful(id, upper, cap);
    }

    /**
     * Where a drain plan puts an operator that cannot carry its planned rate: the smallest
     * parallelism that still drains the plan's backlog within the whole catch-up time (the plan
     * drains it in {@link SourceTarget#PLAN_SHARE} of it, the spare for a downtime that runs over),
     * else the most capable one, where the backlog drains fastest. The most capable parallelism of
     * a hot-key operator is often its key-group count, many instances for the last few per cent.
     */
    private static int drainsInTime(
            String id,
            Ds2Formula.Estimate base,
            Ds2Formula.Estimate plan,
            double margin,
            int upper,
            double cap,
            Capacities capacities) {
        double catchUp = plan.targetInputRate() - base.targetInputRate();
        double whole = margin * (base.targetInputRate() + catchUp * SourceTarget.PLAN_SHARE);
        return capacities
                .smallest(id, whole, upper, cap)
                .orElseGet(() -> capacities.mostCapable(id, upper, cap));
    }

    private static String explainDs2(
            Ds2Formula.Estimate base,
            Ds2Formula.Estimate plan,
            int p,
            double utilization,
            Optional<String> curve) {
        String capacity =
                String.format("capacity %.1f rec/s per instance", plan.capacityPerInstance())
                        + curve.map(c -> " (" + c + ")").orElse("");
        String target =
                String.format("DS2: target %.1f rec/s / %s", plan.targetInputRate(), capacity);
        if (utilization < 1.0 && base.targetInputRate() / utilization >= plan.targetInputRate()) {
            target =
                    String.format(
                            "DS2: base target %.1f rec/s / (%s × target utilization %.2f)",
                            base.targetInputRate(), capacity, utilization);
        }
        return target + " = " + p;
    }

    private static int bound(OperatorSpec op, int p, ParallelismBounds b, List<String> reasons) {
        int upper = Math.min(b.max(), op.maxUsefulParallelism());
        int lower = Math.min(b.min(), upper);
        if (p < lower) {
            reasons.add("raised to min parallelism " + lower);
            return lower;
        }
        if (p > upper) {
            reasons.add(clamped(op, upper, b));
            return upper;
        }
        return p;
    }

    private static String clamped(OperatorSpec op, int upper, ParallelismBounds b) {
        if (b.max() <= upper) {
            return "clamped to max parallelism " + upper;
        }
        return upper == op.keyGroups()
                ? "clamped to max parallelism " + upper + " (the operator's key groups)"
                : "capped at "
                        + upper
                        + ": the source has "
                        + upper
                        + " splits (Kafka partitions); an instance beyond them would read nothing";
    }

    private static int align(OperatorSpec op, int p, PolicyConfig c, List<String> reasons) {
        int upper = Math.min(c.boundsOf(op.id()).max(), op.maxUsefulParallelism());
        int q = KeyGroupAlignment.align(p, op.keyGroups(), c.alignmentMaxIncrease(), upper);
        if (q != p) {
            reasons.add(
                    "aligned to "
                            + q
                            + " to divide "
                            + op.keyGroups()
                            + " key groups evenly (+"
                            + (q - p)
                            + ")");
        }
        return q;
    }
}
