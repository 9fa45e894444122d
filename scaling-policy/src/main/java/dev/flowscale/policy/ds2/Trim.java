package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A rescale the running configuration does not need: it only lowers operators to the trim plan, and
 * only when every source has drained its backlog (and emitted no more than it was offered over the
 * window: the pipeline's buffers drained too), the scale-down has been recommended for the
 * scale-down delay, the scale-down interval has passed, the trimmed configuration still has the
 * spare capacity to drain its own downtime within the catch-up time, and the instance-time it saves
 * over the savings horizon exceeds the instance-time its downtime costs. Where no rescale helps the
 * running configuration, see {@link Running}.
 */
final class Trim {

    /** How a refusal for want of spare capacity begins; the next decision looks for it. */
    static final String TOO_TIGHT = "trim refused: ";

    private final PolicyConfig config;
    private final ScalingHistory history;
    private final Instant now;
    private final RescaleCost cost;
    private final Capacities capacities;
    private final Duration scaleDownDelay;
    private final Optional<String> drainingInWindow;
    private final TrimDrain trimDrain;

    /**
     * @param drainingInWindow why the window's rates are still a drain's, if they are ({@link
     *     RunningCheck#drainingInWindow}): it holds the trim as a backlog does
     * @param scaleDownDelay how long a lower recommendation must stand: the configured delay, or
     *     zero where a periodic forecast sized the trim plan over it and rises nowhere within the
     *     savings horizon ({@link Forecasts#trimsAhead()})
     */
    Trim(
            PolicyConfig config,
            ScalingHistory history,
            Instant now,
            RescaleCost cost,
            Capacities capacities,
            Duration scaleDownDelay,
            Optional<String> drainingInWindow,
            double windowSeconds) {
        this.drainingInWindow = drainingInWindow;
        this.trimDrain = new TrimDrain(config, windowSeconds, cost.seconds(), capacities);
        this.capacities = capacities;
        this.scaleDownDelay = scaleDownDelay;
        this.config = config;
        this.history = history;
        this.now = now;
        this.cost = cost;
    }

    /** How the running configuration stands against its target. */
    enum Running {
        /** It sustains its target and drains its backlog in time. */
        SUSTAINS,
        /**
         * Every operator carries its base rate, but no rescale drains the backlog sooner: nothing
         * is lowered, which would only slow the drain.
         */
        NO_RESCALE_HELPS,
        /**
         * Every operator sustains its target, and the backlog drains later than the catch-up time
         * but sooner than after any planned rescale's downtime ({@link DrainSooner}): nothing is
         * lowered, which would only slow the drain.
         */
        DRAINS_SOONEST_AS_IT_RUNS,
        /**
         * An operator at its bound or hot key carries no more than its base rate, and no rescale
         * helps: the backlog behind it cannot drain, so it holds no trim, and the other operators
         * may come down to the flow the limit lets through.
         */
        LIMITED_BELOW_BASE
    }

    ScalingDecision decide(
            String job,
            Map<String, SourceTarget> base,
            Map<String, Ds2Formula.Estimate> required,
            List<String> reasons,
            List<OperatorDecision> plan,
            Running running) {
        boolean sustains = running == Running.SUSTAINS;
        boolean limited = running == Running.LIMITED_BELOW_BASE;
        String kept =
                sustains
                        ? ": the running configuration sustains its target"
                        : running == Running.DRAINS_SOONEST_AS_IT_RUNS
                                ? ": no rescale drains the backlog sooner than the running"
                                        + " configuration"
                                : ": no rescale helps, the planned configuration would carry no more";
        // a sustaining configuration's trim may raise an operator that lacks the spare to drain the
        // trim's own downtime; with nothing lowered, nothing is raised. Below a limit, nothing is
        // raised and the others may come down to the capped plan's flow
        List<OperatorDecision> ops =
                sustains
                        ? plan
                        : limited
                                ? keepShort(keep(plan, kept), required, kept)
                                : keepAll(plan, kept);
        double load = base.values().stream().mapToDouble(SourceTarget::offered).sum();
        Predicate<ScalingDecision> sameLoad =
                once(d -> Load.same(Load.of(d, base.keySet()), load, config));
        SameLoadRun atLoad = new SameLoadRun(history.decisions(), sameLoad);
        ops = map(ops, op -> ScaleDownDelay.apply(op, history, now, scaleDownDelay, atLoad));
        if (sustains && ops.stream().anyMatch(Load::lowers)) {
            ops =
                    map(
                            ops,
                            op ->
                                    Load.lowers(op)
                                            ? op
                                            : ScaleDownDelay.highestOfDelay(
                                                    op, history, now, scaleDownDelay, atLoad));
        }
        // a backlog that no rescale can drain holds no trim: the limit, not the trim, keeps it
        Optional<String> hold =
                (limited ? Optional.<String>empty() : draining(base).or(() -> drainingInWindow))
                        .or(this::interval)
                        .or(() -> sameLoad(base));
        if (hold.isPresent()) {
            ops =
                    map(
                            ops,
                            op ->
                                    Load.lowers(op)
                                            ? op.withNewParallelism(
                                                    op.currentParallelism(), hold.get())
                                            : op);
        }
        if (!limited && config.catchUpSeconds() > 0) {
            ops = trimDrain.fit(ops, required);
        }
        List<OperatorDecision> candidate = ops;
        Optional<String> refused =
                (limited ? Optional.<String>empty() : tooTight(candidate, required))
                        .or(() -> refusedJustNow(candidate, load, base.keySet()))
                        .or(
                                () ->
                                        FailedTrim.repeated(
                                                candidate, history, load, base.keySet(), config))
                        .or(() -> notWorthIt(candidate));
        if (refused.isPresent()) {
            ops =
                    map(
                            ops,
                            op ->
                                    Load.lowers(op)
                                            ? op.withNewParallelism(
                                                    op.currentParallelism(), refused.get())
                                            : op);
        }
        return outcome(job, reasons, ops.stream().anyMatch(Load::lowers) ? ops : keep(ops, kept));
    }

    /** Every operator kept where it runs. */
    private static List<OperatorDecision> keepAll(List<OperatorDecision> ops, String why) {
        return map(
                ops,
                op ->
                        op.changes()
                                ? op.withNewParallelism(
                                        op.currentParallelism(),
                                        "kept at " + op.currentParallelism() + why)
                                : op);
    }

    /**
     * Every operator the plan lowers to a parallelism that carries less than it does now while
     * short of its need kept where it runs: below a limit, only the operators with spare come down.
     */
    private List<OperatorDecision> keepShort(
            List<OperatorDecision> ops, Map<String, Ds2Formula.Estimate> required, String why) {
        return map(
                ops,
                op -> {
                    double perInstance = op.capacityPerInstance();
                    if (!Load.lowers(op) || perInstance <= 0) {
                        return op;
                    }
                    String id = op.operatorId();
                    double now = capacities.at(id, op.currentParallelism(), perInstance);
                    double need = required.get(id).targetInputRate();
                    return capacities.at(id, op.newParallelism(), perInstance)
                                    < Math.min(need, now) * (1 - 1e-9)
                            ? op.withNewParallelism(
                                    op.currentParallelism(),
                                    "kept at " + op.currentParallelism() + why)
                            : op;
                });
    }

    /** Every operator the plan raises kept where it runs. */
    private static List<OperatorDecision> keep(List<OperatorDecision> ops, String why) {
        return map(
                ops,
                op ->
                        op.newParallelism() > op.currentParallelism()
                                ? op.withNewParallelism(
                                        op.currentParallelism(),
                                        "kept at " + op.currentParallelism() + why)
                                : op);
    }

    private Optional<String> draining(Map<String, SourceTarget> base) {
        for (Map.Entry<String, SourceTarget> s : base.entrySet()) {
            if (RunningCheck.excess(s.getValue(), config) > 0) {
                return Optional.of(
                        String.format(
                                "scale-down held: source '%s' is still draining a backlog of %.0f"
                                        + " records",
                                s.getKey(), s.getValue().owed()));
            }
        }
        return Optional.empty();
    }

    private Optional<String> interval() {
        Duration interval = config.scaleDownInterval();
        OptionalInt latest = history.index().latestScaleDown();
        if (interval.isZero() || latest.isEmpty()) {
            return Optional.empty();
        }
        ScalingDecision d = history.decisions().get(latest.getAsInt());
        Instant next = d.time().plus(interval);
        return now.isBefore(next)
                ? Optional.of(
                        "scale-down held: the last scale-down was at "
                                + d.time()
                                + "; the scale-down interval of "
                                + interval.toSeconds()
                                + " s ends at "
                                + next)
                : Optional.empty();
    }

    /**
     * After a trim, the next one waits for a load change: the sources' base rate must have fallen
     * by more than the load-change fraction since; noise alone never trims twice. The exception is
     * a {@link CorrectiveTrim}, once the trim's guessed capacity or downtime has been measured.
     */
    private Optional<String> sameLoad(Map<String, SourceTarget> base) {
        double rate = base.values().stream().mapToDouble(SourceTarget::offered).sum();
        OptionalInt latest = history.index().latestScale();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        ScalingDecision d = history.decisions().get(latest.getAsInt());
        double then = Load.of(d, base.keySet());
        return !Load.isTrim(d)
                        || Load.fell(then, rate, config)
                        || CorrectiveTrim.allowedAfter(history, base.keySet(), config, cost)
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                "further trim held: the sources' rate %.1f rec/s has not fallen by more than"
                                        + " %.0f %% since the last trim at %s (%.1f rec/s)",
                                rate, 100 * Load.threshold(config), d.time(), then));
    }

    /**
     * The trimmed configuration must drain the backlog of its own downtime in time ({@link
     * TrimDrain}).
     */
    private Optional<String> tooTight(
            List<OperatorDecision> ops, Map<String, Ds2Formula.Estimate> required) {
        return ops.stream().noneMatch(Load::lowers) || config.catchUpSeconds() == 0
                ? Optional.empty()
                : trimDrain.tooTight(ops, required);
    }

    /**
     * A trim the previous decision refused as too tight stays refused until the sources' rate has
     * moved by more than the noise tolerance: a bottleneck whose spare sits at the edge would
     * otherwise let noise, or the first second of a step down in a window still at the old load,
     * pass a trim that the next window, wholly at the new load, sizes again: two trims for one load
     * change.
     */
    private Optional<String> refusedJustNow(
            List<OperatorDecision> ops, double load, Set<String> sources) {
        if (ops.stream().noneMatch(Load::lowers) || history.decisions().isEmpty()) {
            return Optional.empty();
        }
        ScalingDecision last = history.decisions().get(history.decisions().size() - 1);
        boolean tooTight =
                last.operators().values().stream()
                        .anyMatch(
                                op -> op.reasons().stream().anyMatch(r -> r.startsWith(TOO_TIGHT)));
        double then = Load.of(last, sources);
        return !tooTight
                        || Double.isNaN(then)
                        || Math.abs(load - then) > config.noiseTolerance() * Math.max(load, then)
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                TOO_TIGHT
                                        + "refused as too tight at %s (%.1f rec/s) and the sources' rate %.1f rec/s"
                                        + " has moved by less than the noise tolerance since",
                                last.time(),
                                then,
                                load));
    }

    private Optional<String> notWorthIt(List<OperatorDecision> ops) {
        int saved =
                ops.stream().mapToInt(op -> op.currentParallelism() - op.newParallelism()).sum();
        int running = ops.stream().mapToInt(OperatorDecision::currentParallelism).sum();
        if (saved <= 0) {
            return ops.stream().anyMatch(Load::lowers)
                    ? Optional.of(
                            "trim not worth it: the operators it raises for spare take back the "
                                    + -saved
                                    + " instances or more that it saves")
                    : Optional.empty();
        }
        double savedSeconds = saved * config.savingsHorizon().toNanos() / 1e9;
        double costSeconds = running * cost.seconds();
        return savedSeconds > costSeconds
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                "trim not worth it: saves %d instances × %d s = %.0f instance-s, its %.1f s of downtime costs"
                                        + " %d instances × %.1f s = %.0f instance-s",
                                saved,
                                config.savingsHorizon().toSeconds(),
                                savedSeconds,
                                cost.seconds(),
                                running,
                                cost.seconds(),
                                costSeconds));
    }

    private ScalingDecision outcome(String job, List<String> reasons, List<OperatorDecision> ops) {
        if (ops.stream().noneMatch(OperatorDecision::changes)) {
            return ops.stream().anyMatch(ScaleDownDelay::delayed)
                    ? ScalingDecision.blocked(
                            now, job, BlockReason.SCALE_DOWN_DELAYED, reasons, ops)
                    : ScalingDecision.of(now, job, reasons, ops);
        }
        if (config.deadBand() > 0
                && ops.stream().allMatch(op -> DeadBand.within(op, config.deadBand()))) {
            List<OperatorDecision> held = map(ops, op -> DeadBand.hold(op, config.deadBand()));
            return ScalingDecision.withinDeadBand(now, job, reasons, held);
        }
        return ScalingDecision.of(now, job, reasons, ops);
    }

    /**
     * The predicate, evaluated at most once per past decision: every operator's scale-down delay
     * walks the same stretch of history, and the load of a past decision is the same for all.
     */
    private static Predicate<ScalingDecision> once(Predicate<ScalingDecision> p) {
        Map<ScalingDecision, Boolean> seen = new IdentityHashMap<>();
        return d -> seen.computeIfAbsent(d, p::test);
    }

    private static List<OperatorDecision> map(
            List<OperatorDecision> ops, UnaryOperator<OperatorDecision> f) {
        List<OperatorDecision> out = new ArrayList<>(ops.size());
        ops.forEach(op -> out.add(f.apply(op)));
        return out;
    }
}
