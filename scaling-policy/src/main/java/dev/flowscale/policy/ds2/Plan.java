package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * DS2 sizing of every operator for a rescale that costs the expected downtime: {@link #needed()}
 * also drains the backlog owed now; {@link #trim()} plans only the downtime of one rescale, the
 * spare capacity any configuration needs to recover from its own rescale within the catch-up time.
 */
final class Plan {

    private final JobTopology topology;
    private final MetricsWindow window;
    private final Map<String, Ds2Formula.Estimate> required;
    private final PolicyConfig config;
    private final RescaleCost cost;
    private final Capacities capacities;
    private final Forecasts forecasts;
    private final OperatorMetrics[] metrics;

    Plan(
            JobTopology topology,
            MetricsWindow window,
            OperatorMetrics[] metrics,
            Map<String, Ds2Formula.Estimate> required,
            PolicyConfig config,
            RescaleCost cost,
            Capacities capacities,
            Forecasts forecasts) {
        this.capacities = capacities;
        this.forecasts = forecasts;
        this.topology = topology;
        this.window = window;
        this.required = required;
        this.config = config;
        this.cost = cost;
        this.metrics = metrics;
    }

    List<OperatorDecision> needed() {
        return size(true, 1);
    }

    List<OperatorDecision> trim() {
        return size(false, 1);
    }

    /**
     * Sizes every operator for the plan's sources. With a periodic forecast, the plan is the
     * larger, per operator, of two: sized for the near forecast (until the next decision can take
     * effect) with its catch-up, and sized for the forecast over the scale-down delay with no
     * catch-up. The second adds instances only where the first would need another scale-up before
     * the scale-down delay lets it go down again, so sizing ahead saves a rescale rather than
     * stacking catch-up capacity on a peak hours away. A trend forecast has no scale-down-delay
     * horizon: its plan is sized for where the ramp goes, with catch-up.
     */
    private List<OperatorDecision> size(boolean drainOwed, double margin) {
        if (!forecasts.periodic()) {
            return size(
                    SourceTarget.of(
                            topology,
                            window,
                            config,
                            forecasts.forPlan(),
                            cost.seconds(),
                            drainOwed),
                    margin,
                    drainOwed);
        }
        List<OperatorDecision> near =
                size(
                        SourceTarget.of(
                                topology, window, config, forecasts, cost.seconds(), drainOwed),
                        margin,
                        drainOwed);
        List<OperatorDecision> ahead =
                size(
                        SourceTarget.of(topology, window, config, forecasts.forPlan(), 0, false),
                        margin,
                        drainOwed);
        List<OperatorDecision> merged = new ArrayList<>(near.size());
        for (int i = 0; i < near.size(); i++) {
            OperatorDecision a = ahead.get(i);
            merged.add(
                    a.newParallelism() > near.get(i).newParallelism()
                            ? a.withReason(
                                    "sized ahead for the forecast over the scale-down delay: sized for"
                                            + " the near forecast it would need "
                                            + near.get(i).newParallelism()
                                            + " and another scale-up before it could go down")
                            : near.get(i));
        }
        return merged;
    }

    /**
     * Sizes every operator; when an operator held at its upper bound cannot carry its planned rate,
     * each operator is sized for the flow it will really receive ({@link #capped}).
     */
    private List<OperatorDecision> size(
            Map<String, SourceTarget> sources, double margin, boolean drainOwed) {
        // one DS2 pass for the sources' planned rates, read by both the full and the capped plan
        Map<String, Ds2Formula.Estimate> planned =
                Ds2Formula.estimate(topology, metrics, SourceTarget.rates(sources));
        List<OperatorDecision> ops = full(sources, planned, margin, drainOwed);
        double feasible = Math.min(1, share(ops, true, capacities));
        if (feasible >= 1 - 1e-9) {
            return ops;
        }
        // the operators before a cap are sized for what it may let through: a cap whose curve is
        // not fitted yet may grow linearly, and sized for the prior's slower growth they would
        // become the bottleneck, with less spare than the cap, once it has run
        return capped(
                sources,
                planned,
                margin,
                drainOwed,
                ops,
                feasible,
                Math.min(1, mayCarry(ops, capacities)));
    }

    /**
     * The plan where some operators cannot carry their planned rate at any allowed parallelism. In
     * topological order: downstream of such an operator, an operator is sized for what its inputs
     * pass on (a capped operator passes on what it carries); fed by a source upstream of one (the
     * cap's backpressure holds that source back), even where it is limited or after a limit itself,
     * for its base rate or the capped share of its planned rate, whichever is more, and for its
     * base rate alone where a cap carries no more than its own base rate (a backlog that cannot
     * drain through the cap must not grow the operators its source feeds, and the base rate is what
     * the source offers them); every other operator keeps its full plan.
     */
    private List<OperatorDecision> capped(
            Map<String, SourceTarget> sources,
            Map<String, Ds2Formula.Estimate> planned,
            double margin,
            boolean drain,
            List<OperatorDecision> full,
            double feasible,
            double passes) {
        boolean[] limited = limitedAt(full, planned);
        boolean[] upstream = upstreamOf(limited);
        boolean[] coupled = coupledTo(upstream);
        // a cap that carries no more than its base rate lets no backlog through: what its sources
        // pass on stays below their base rate
        boolean[] belowBase = belowBase(full, limited);
        double drains = anyOf(belowBase) ? 0 : passes;
        String[] why = new String[3]; // formatted once each: upstream, downstream; the bottleneck
        List<OperatorSpec> specs = topology.operators();
        double[] plannedOut = new double[specs.size()];
        double[] heldOut = new double[specs.size()];
        double[] baseOut = new double[specs.size()];
        boolean[] downstream = new boolean[specs.size()];
        Iterator<Ds2Formula.Estimate> baseInOrder = required.values().iterator();
        List<OperatorDecision> ops = new ArrayList<>(specs.size());
        int i = 0;
        for (Ds2Formula.Estimate e : planned.values()) {
            Ds2Formula.Estimate b = baseInOrder.next();
            downstream[i] = !topology.isSourceAt(i) && anyInput(i, limited, downstream);
            double target = e.targetInputRate();
            double baseTarget = b.targetInputRate();
            if (downstream[i]) {
                boolean ownPlan = limited[i] && (drains > 0 || belowBase[i]);
                target = topology.sumOverInputs(i, ownPlan ? plannedOut : heldOut);
                baseTarget = Math.min(baseTarget, topology.sumOverInputs(i, baseOut));
            }
            // the cap's backpressure holds its sources to its share: an operator on its path
            // before it (limited itself, a hot key, or not) or beside it is not sized to drain a
            // backlog the cap holds back. One fed through a limit already gets only what the
            // limit passes on: the share is not taken twice where it is also before another cap
            boolean before =
                    !topology.isSourceAt(i)
                            && !fedThroughLimit(i, limited, downstream)
                            && (upstream[i] || coupled[i] && !downstream[i]);
            if (before) {
                target = Math.max(baseTarget, drains * target);
            }
            // neither before nor after a cap, an operator keeps its full plan's sizing; so does a
            // source, whose target and catch-up share tell later decisions the load it planned for
            OperatorDecision op =
                    !downstream[i] && !before
                            ? full.get(i)
                            : Sizing.recommend(
                                    specs.get(i),
                                    metrics[i],
                                    retargeted(b, baseTarget),
                                    retargeted(e, target),
                                    topology.isSourceAt(i) ? sources.get(e.operatorId()) : null,
                                    config,
                                    margin,
                                    drain,
                                    capacities);
            double carried =
                    op.capacityPerInstance() > 0
                            ? capacities.atMost(
                                    op.operatorId(), op.newParallelism(), op.capacityPerInstance())
                            : Double.POSITIVE_INFINITY;
            double selectivity =
                    e.targetInputRate() > 0 ? e.targetOutputRate() / e.targetInputRate() : 0;
            plannedOut[i] =
                    topology.isSourceAt(i)
                            ? e.targetOutputRate()
                            : selectivity * Math.min(target, carried);
            // a source upstream of a cap emits no more than the cap lets through: what it passes
            // on beside the cap, as what an operator before the cap passes on, is its base rate
            // or the capped share. A cap is sized on its full plan, as raising it raises that
            // share, unless another cap lets no backlog through
            heldOut[i] =
                    topology.isSourceAt(i) && upstream[i]
                            ? Math.max(b.targetOutputRate(), drains * e.targetOutputRate())
                            : plannedOut[i];
            baseOut[i] =
                    topology.isSourceAt(i)
                            ? b.targetOutputRate()
                            : selectivity * Math.min(baseTarget, carried);
            ops.add(
                    op.newParallelism() == full.get(i).newParallelism()
                            ? op
                            : op.withReason(cappedWhy(full, downstream[i], feasible, passes, why)));
            i++;
        }
        return ops;
    }

    /** Operators whose full plan carries less than their planned rate: each caps the flow. */
    private boolean[] limitedAt(
            List<OperatorDecision> full, Map<String, Ds2Formula.Estimate> planned) {
        boolean[] limited = new boolean[full.size()];
        int i = 0;
        for (Ds2Formula.Estimate e : planned.values()) {
            OperatorDecision op = full.get(i);
            limited[i] =
                    !topology.isSourceAt(i)
                            && op.capacityPerInstance() > 0
                            && capacities.at(
                                            op.operatorId(),
                                            op.newParallelism(),
                                            op.capacityPerInstance())
                                    < e.targetInputRate() * (1 - 1e-9);
            i++;
        }
        return limited;
    }

    /** The limited operators that carry no more than their base rate in the full plan. */
    private boolean[] belowBase(List<OperatorDecision> full, boolean[] limited) {
        Iterator<Ds2Formula.Estimate> base = required.values().iterator();
        boolean[] below = new boolean[limited.length];
        for (int i = 0; i < limited.length; i++) {
            double need = base.next().targetInputRate();
            OperatorDecision op = full.get(i);
            below[i] =
                    limited[i]
                            && capacities.at(
                                            op.operatorId(),
                                            op.newParallelism(),
                                            op.capacityPerInstance())
                                    <= need;
        }
        return below;
    }

    private static boolean anyOf(boolean[] flags) {
        for (boolean f : flags) {
            if (f) {
                return true;
            }
        }
        return false;
    }

    /**
     * Operators with a path to a limited one: in reverse topological order, each limited or
     * upstream operator marks its inputs.
     */
    private boolean[] upstreamOf(boolean[] limited) {
        boolean[] upstream = new boolean[limited.length];
        for (int i = limited.length - 1; i >= 0; i--) {
            if (limited[i] || upstream[i]) {
                topology.flagInputs(i, upstream);
            }
        }
        return upstream;
    }

    /**
     * Operators fed by a source with a path to a limited operator: in topological order, such a
     * source, and every operator reading from a flagged one.
     */
    private boolean[] coupledTo(boolean[] upstream) {
        boolean[] coupled = new boolean[upstream.length];
        for (int i = 0; i < upstream.length; i++) {
            coupled[i] =
                    topology.isSourceAt(i) ? upstream[i] : topology.anyInputFlagged(i, coupled);
        }
        return coupled;
    }

    /** Whether the operator reads from a limited operator or from one after a limit. */
    private boolean fedThroughLimit(int i, boolean[] limited, boolean[] downstream) {
        return topology.anyInputFlagged(i, limited) || topology.anyInputFlagged(i, downstream);
    }

    /** Whether the operator is limited itself or reads from a limited or downstream operator. */
    private boolean anyInput(int i, boolean[] limited, boolean[] downstream) {
        return limited[i] || fedThroughLimit(i, limited, downstream);
    }

    private static Ds2Formula.Estimate retargeted(Ds2Formula.Estimate e, double target) {
        double selectivity =
                e.targetInputRate() > 0 ? e.targetOutputRate() / e.targetInputRate() : 0;
        return new Ds2Formula.Estimate(
                e.operatorId(), target, e.capacityPerInstance(), target * selectivity);
    }

    /** The reason of a capped operator, formatted once per kind into {@code why}. */
    private String cappedWhy(
            List<OperatorDecision> full,
            boolean downstream,
            double feasible,
            double passes,
            String[] why) {
        int kind = downstream ? 1 : 0;
        if (why[2] == null) {
            why[2] = bottleneck(full, capacities);
        }
        if (why[kind] == null) {
            why[kind] =
                    String.format(
                            "capped: '%s' at its upper bound carries only %.0f %% of the planned"
                                    + " rate; %s",
                            why[2],
                            100 * feasible,
                            downstream
                                    ? "sized for the flow it passes on"
                                    : Math.round(100 * passes) > Math.round(100 * feasible)
                                            ? String.format(
                                                    "its curve is not fitted, so it may carry up to"
                                                            + " %.0f %% (linear growth); sized for"
                                                            + " its base rate or that share of its"
                                                            + " planned rate, whichever is more",
                                                    100 * passes)
                                            : "sized for its base rate or that share of its planned"
                                                    + " rate, whichever is more");
        }
        return why[kind];
    }

    private List<OperatorDecision> full(
            Map<String, SourceTarget> sources,
            Map<String, Ds2Formula.Estimate> planned,
            double margin,
            boolean drain) {
        // Both maps, the metrics and the operators are in topological order: walked side by side,
        // not looked up by id for each of a large graph's operators.
        List<OperatorSpec> specs = topology.operators();
        List<OperatorDecision> ops = new ArrayList<>(specs.size());
        Iterator<Ds2Formula.Estimate> baseInOrder = required.values().iterator();
        int i = 0;
        for (Ds2Formula.Estimate e : planned.values()) {
            ops.add(
                    Sizing.recommend(
                            specs.get(i),
                            metrics[i],
                            baseInOrder.next(),
                            e,
                            topology.isSourceAt(i) ? sources.get(e.operatorId()) : null,
                            config,
                            margin,
                            drain,
                            capacities));
            i++;
        }
        return ops;
    }

    /**
     * Whether the plan carries more than the running configuration, beyond the noise tolerance: at
     * the worst operator, or at any operator short of its need ({@code required}, at most its
     * planned rate: downstream of a cap, what reaches it) that the plan raises. An operator held at
     * its bound can make the first test fail while another operator, below its need, can still be
     * raised; only a rescale that raises nothing short is useless.
     */
    static boolean improves(
            List<OperatorDecision> ops,
            Map<String, Ds2Formula.Estimate> required,
            PolicyConfig config,
            Capacities capacities) {
        if (share(ops, true, capacities)
                > share(ops, false, capacities) * (1 + config.noiseTolerance())) {
            return true;
        }
        for (OperatorDecision op : ops) {
            double need =
                    Math.min(required.get(op.operatorId()).targetInputRate(), op.targetInputRate());
            double perInstance = op.capacityPerInstance();
            if (need > 0 && perInstance > 0) {
                double now = capacities.at(op.operatorId(), op.currentParallelism(), perInstance);
                double then = capacities.at(op.operatorId(), op.newParallelism(), perInstance);
                boolean shortOfNeed =
                        need > now * config.targetUtilization() * (1 + config.noiseTolerance());
                if (shortOfNeed && then > now * (1 + 1e-9)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * At the worst operator, the share of its target that its capacity at the planned (or current)
     * parallelism carries.
     */
    static double share(List<OperatorDecision> ops, boolean planned, Capacities capacities) {
        double share = Double.POSITIVE_INFINITY;
        for (OperatorDecision op : ops) {
            if (op.targetInputRate() > 0 && op.capacityPerInstance() > 0) {
                int p = planned ? op.newParallelism() : op.currentParallelism();
                share =
                        Math.min(
                                share,
                                capacities.at(op.operatorId(), p, op.capacityPerInstance())
                                        / op.targetInputRate());
            }
        }
        return share;
    }

    /**
     * As {@link #share} at the planned parallelism, with each operator's capacity at its most
     * ({@link Capacities#atMost}).
     */
    private static double mayCarry(List<OperatorDecision> ops, Capacities capacities) {
        double share = Double.POSITIVE_INFINITY;
        for (OperatorDecision op : ops) {
            if (op.targetInputRate() > 0 && op.capacityPerInstance() > 0) {
                share =
                        Math.min(
                                share,
                                capacities.atMost(
                                                op.operatorId(),
                                                op.newParallelism(),
                                                op.capacityPerInstance())
                                        / op.targetInputRate());
            }
        }
        return share;
    }

    private static String bottleneck(List<OperatorDecision> ops, Capacities capacities) {
        return ops.stream()
                .filter(op -> op.targetInputRate() > 0 && op.capacityPerInstance() > 0)
                .min(
                        Comparator.comparingDouble(
                                op ->
                                        capacities.at(
                                                        op.operatorId(),
                                                        op.newParallelism(),
                                                        op.capacityPerInstance())
                                                / op.targetInputRate()))
                .map(OperatorDecision::operatorId)
                .orElse("?");
    }
}
