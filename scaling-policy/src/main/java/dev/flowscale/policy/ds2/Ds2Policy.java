package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.model.FittedCurves;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DS2 that settles at any rescale cost. In order: a rescale in progress, missing, stale or invalid
 * metrics and warm-up block the decision. Then the running configuration is judged on what was
 * measured ({@link RunningCheck}): if it cannot sustain the sources' rates or drain their backlog
 * within the catch-up time, a rescale is needed, and every operator is sized by DS2 for the base
 * rate plus the backlog owed now and the backlog this rescale's own downtime will add (measured per
 * path, {@link RescaleCost}). Otherwise the only rescale possible is a trim ({@link Trim}): sized
 * for the base rate plus the downtime of one rescale, taken once the backlog has drained, after the
 * scale-down delay and interval, and only when it saves more than it costs.
 *
 * <p>A rescale's downtime is planned once, when it is decided; the next decision judges the new
 * configuration on the measured backlog, which already contains that downtime. Hence no ratchet: a
 * configuration that drains in time is kept, and the trim's target is a fixed point.
 */
public final class Ds2Policy implements ScalingPolicy {

    private final PolicyConfig config;
    private final Clock clock;
    private final FittedCurves fitted;

    public Ds2Policy(PolicyConfig config, Clock clock) {
        this(config, clock, new FittedCurves());
    }

    /** Reusing the capacity curves in {@code fitted} while their points are unchanged. */
    Ds2Policy(PolicyConfig config, Clock clock, FittedCurves fitted) {
        this.config = Checks.notNull(config, "Ds2Policy config");
        this.clock = Checks.notNull(clock, "Ds2Policy clock");
        this.fitted = Checks.notNull(fitted, "Ds2Policy fitted curves");
    }

    @Override
    public ScalingDecision decide(
            JobTopology topology, MetricsWindow measured, ScalingHistory history) {
        Instant now = clock.instant();
        // true rates over useful time less the wait for a core (a loaded machine, a throttled pod)
        MetricsWindow window =
                config.coreWaitCorrection() ? CoreWait.corrected(measured) : measured;
        // the window's metrics by topological position, looked up once: validated, then read by
        // every pass
        OperatorMetrics[] inOrder = Ds2Formula.withGaps(topology, window);
        Optional<Problem> problem = preconditions(topology, window, inOrder, history, now);
        if (problem.isPresent()) {
            return blocked(now, topology.jobName(), problem.get());
        }
        Optional<Problem> unknown =
                unknownCapacity(
                        topology,
                        window,
                        inOrder,
                        SourceTarget.base(topology, window, config, Forecasts.NONE));
        RescaleCost cost = RescaleCost.of(history, config);
        Forecasts forecasts = Forecasts.of(topology, window, history, config, cost, now);
        Map<String, SourceTarget> base = SourceTarget.base(topology, window, config, forecasts);
        Map<String, Ds2Formula.Estimate> required =
                Ds2Formula.estimate(topology, inOrder, SourceTarget.rates(base));
        RunningCheck running = RunningCheck.of(topology, window, inOrder, required, base, config);
        if (unknown.isPresent() && !running.measuredShort()) {
            return blocked(now, topology.jobName(), unknown.get());
        }
        List<String> reasons = new ArrayList<>();
        // an operator starved of input behind a measured bottleneck: the bottleneck is raised now,
        // the starved one is kept where it runs and sized once it has processed records
        unknown.ifPresent(
                u ->
                        reasons.add(
                                u.message()
                                        + "; kept at its parallelism while the measured bottleneck"
                                        + " is raised"));
        reasons.add("DS2 over the window " + window.start() + " .. " + window.end());
        reasons.addAll(forecasts.explain());
        reasons.addAll(running.explain());
        reasons.add(cost.explain());
        CoreWait.explain(window).ifPresent(reasons::add);
        Capacities capacities = Capacities.of(topology, inOrder, window, history, config, fitted);
        Plan plan =
                new Plan(topology, window, inOrder, required, config, cost, capacities, forecasts);
        Forecasts rising =
                running.needed().isPresent()
                        ? RisingLoad.of(topology, window, history, config, cost, now)
                        : Forecasts.NONE;
        reasons.addAll(rising.explain());
        List<OperatorDecision> planned =
                running.needed().isEmpty()
                        ? List.of()
                        : rising == Forecasts.NONE
                                ? plan.needed()
                                : new Plan(
                                                topology,
                                                window,
                                                inOrder,
                                                required,
                                                config,
                                                cost,
                                                capacities,
                                                RisingLoad.over(forecasts, rising))
                                        .needed();
        List<OperatorDecision> needed = unknown.isPresent() ? raisesOnly(planned) : planned;
        Optional<String> noSooner =
                DrainSooner.no(running, needed, required, capacities, config, cost.seconds());
        if (running.needed().isPresent()
                && !running.outOfBounds()
                && !Plan.improves(needed, required, config, capacities)) {
            reasons.add(running.needed().get());
            reasons.add(
                    "no rescale helps: the planned configuration would carry no more than the running one");
        } else if (noSooner.isPresent()) {
            reasons.add(running.needed().get());
            reasons.add(noSooner.get());
        } else if (running.needed().isPresent()) {
            reasons.add(running.needed().get());
            Optional<String> urgent =
                    UrgentNeed.of(
                            needed,
                            required,
                            base,
                            running.headroom(),
                            cost.seconds(),
                            window.length().toNanos() / 1e9,
                            config,
                            capacities);
            urgent.ifPresent(reasons::add);
            return (urgent.isPresent() ? Optional.<String>empty() : unconfirmed(history))
                    .map(
                            why ->
                                    held(
                                            now,
                                            topology.jobName(),
                                            BlockReason.NEED_UNCONFIRMED,
                                            why,
                                            reasons,
                                            needed))
                    .orElseGet(() -> budget(now, topology.jobName(), history, reasons, needed));
        }
        ScalingDecision trim =
                new Trim(
                                config,
                                history,
                                now,
                                cost,
                                capacities,
                                forecasts.trimsAhead() ? Duration.ZERO : config.scaleDownDelay(),
                                RunningCheck.drainingInWindow(topology, inOrder, base, config),
                                window.length().toNanos() / 1e9)
                        .decide(
                                topology.jobName(),
                                base,
                                required,
                                reasons,
                                plan.trim(),
                                running.needed().isEmpty()
                                        ? Trim.Running.SUSTAINS
                                        : noSooner.isPresent()
                                                ? Trim.Running.DRAINS_SOONEST_AS_IT_RUNS
                                                : running.headroom() <= 1
                                                        ? Trim.Running.LIMITED_BELOW_BASE
                                                        : Trim.Running.NO_RESCALE_HELPS);
        return trim.isScale()
                ? budget(now, topology.jobName(), history, reasons, trim.operators().values())
                : trim;
    }

    /**
     * The plan with no operator lowered: while an operator's output is unknown, the rates it passes
     * on are too, and an operator after it could be sized below what reaches it.
     */
    private static List<OperatorDecision> raisesOnly(List<OperatorDecision> plan) {
        return plan.stream()
                .map(
                        op ->
                                op.newParallelism() < op.currentParallelism()
                                        ? op.withNewParallelism(
                                                op.currentParallelism(),
                                                "kept: an operator's output is unknown, so no"
                                                        + " operator is lowered")
                                        : op)
                .toList();
    }

    private static ScalingDecision blocked(Instant now, String job, Problem problem) {
        return ScalingDecision.blocked(now, job, problem.reason(), problem.message());
    }

    private Optional<Problem> preconditions(
            JobTopology t,
            MetricsWindow w,
            OperatorMetrics[] inOrder,
            ScalingHistory h,
            Instant now) {
        if (h.rescaleInProgress()) {
            return Optional.of(
                    new Problem(
                            BlockReason.RESCALE_IN_PROGRESS,
                            "a rescale started at "
                                    + h.lastRescale().orElseThrow().started()
                                    + " has not finished"));
        }
        return warmingUp(w, h).or(() -> MetricsValidator.check(t, w, inOrder, now, config));
    }

    private Optional<Problem> warmingUp(MetricsWindow w, ScalingHistory h) {
        Optional<Instant> finished = h.lastRescale().flatMap(RescaleRecord::finished);
        if (finished.isEmpty()) {
            return Optional.empty();
        }
        Instant warm = finished.get().plus(config.warmUp());
        return w.start().isBefore(warm)
                ? Optional.of(
                        new Problem(
                                BlockReason.WARMING_UP,
                                "window starts at "
                                        + w.start()
                                        + ", before the warm-up after the rescale that finished at "
                                        + finished.get()
                                        + " ends at "
                                        + warm))
                : Optional.empty();
    }

    private Optional<Problem> unknownCapacity(
            JobTopology t,
            MetricsWindow w,
            OperatorMetrics[] inOrder,
            Map<String, SourceTarget> base) {
        if (everyCapacityMeasured(t, inOrder)) {
            return Optional.empty();
        }
        for (Ds2Formula.Estimate e : Ds2Formula.estimate(t, w, SourceTarget.rates(base)).values()) {
            if (e.parallelism(config.targetUtilization()) == 0 && !t.isSource(e.operatorId())) {
                return Optional.of(
                        new Problem(
                                BlockReason.METRICS_MISSING,
                                String.format(
                                        "operator '%s' processed no records in the window but must process %.1f rec/s;"
                                                + " its capacity is unknown",
                                        e.operatorId(), e.targetInputRate())));
            }
        }
        return Optional.empty();
    }

    /**
     * Without an operator that processed nothing, no capacity is unknown: a DS2 pass would find
     * nothing.
     */
    private static boolean everyCapacityMeasured(JobTopology t, OperatorMetrics[] inOrder) {
        for (int i = 0; i < inOrder.length; i++) {
            if (!t.isSourceAt(i) && inOrder[i].trueProcessingRate() == 0) {
                return false;
            }
        }
        return true;
    }

    /** Why a needed rescale waits: the previous decision did not see the need too. */
    private Optional<String> unconfirmed(ScalingHistory h) {
        boolean confirmed =
                !h.decisions().isEmpty()
                        && h.decisions()
                                .get(h.decisions().size() - 1)
                                .isBlocked(BlockReason.NEED_UNCONFIRMED);
        return !config.confirmNeed() || confirmed
                ? Optional.empty()
                : Optional.of(
                        "rescale waits for the next"
                                + " window to confirm the need and to size it on rates measured wholly at the new load");
    }

    /**
     * A rescale is refused, with its reasons kept, once the job has used its budget of rescales per
     * hour.
     */
    private ScalingDecision budget(
            Instant now,
            String job,
            ScalingHistory h,
            List<String> reasons,
            Collection<OperatorDecision> ops) {
        int max = config.maxRescalesPerHour();
        int lastHour = startedSince(h.rescales(), now.minusSeconds(3600));
        if (max == 0 || ops.stream().noneMatch(OperatorDecision::changes) || lastHour < max) {
            return ScalingDecision.of(now, job, reasons, List.copyOf(ops));
        }
        return held(
                now,
                job,
                BlockReason.RESCALE_BUDGET_EXHAUSTED,
                String.format(
                        "rescale budget used: %d rescales started in the last hour (at most %d)",
                        lastHour, max),
                reasons,
                ops);
    }

    /**
     * How many of the rescales (oldest first) started after {@code since}, counted from the latest
     * back: the work is bounded by the budget, not by the rescales kept.
     */
    private static int startedSince(List<RescaleRecord> rescales, Instant since) {
        int count = 0;
        for (int i = rescales.size() - 1; i >= 0 && rescales.get(i).started().isAfter(since); i--) {
            count++;
        }
        return count;
    }

    private static ScalingDecision held(
            Instant now,
            String job,
            BlockReason why,
            String reason,
            List<String> reasons,
            Collection<OperatorDecision> ops) {
        List<String> more = new ArrayList<>(reasons);
        more.add(reason);
        List<OperatorDecision> held =
                ops.stream()
                        .map(
                                op ->
                                        op.changes()
                                                ? op.withNewParallelism(
                                                        op.currentParallelism(), "held: " + reason)
                                                : op)
                        .toList();
        return ScalingDecision.blocked(now, job, why, more, held);
    }
}
