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
import java.util.LinkedHashMap;
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
     * Sizes every operator; when an operator held at its upper bound cannot carry its share, the
     * plan shrinks to what that bottleneck carries, so that no other operator grows for records
     * that can never reach it (a plan that grows with a backlog it cannot drain would ratchet).
     */
    private List<OperatorDecision> size(
            Map<String, SourceTarget> sources, double margin, boolean drainOwed) {
        List<OperatorDecision> ops = size(sources, margin, 1.0, drainOwed);
        double feasible = Math.min(1, share(ops, true, capacities));
        if (feasible >= 1 - 1e-9) {
            return ops;
        }
        List<OperatorDecision> capped = size(sources, margin, feasible, drainOwed);
        String why =
                String.format(
                        "capped: '%s' at its upper bound carries only %.0f %% of the planned rate;"
                                + " every operator is sized for that",
                        bottleneck(ops, capacities), 100 * feasible);
        List<OperatorDecision> result = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            OperatorDecision first = ops.get(i);
            result.add(
                    first.newParallelism() == capped.get(i).newParallelism()
                            ? first.withReason(why)
                            : capped.get(i).withReason(why));
        }
        return result;
    }

    private List<OperatorDecision> size(
            Map<String, SourceTarget> sources, double margin, double share, boolean drain) {
        Map<String, Double> rates = SourceTarget.rates(sources);
        rates.replaceAll((id, rate) -> rate * share);
        Map<String, Ds2Formula.Estimate> planned = Ds2Formula.estimate(topology, metrics, rates);
        Map<String, Ds2Formula.Estimate> base = required;
        if (share < 1) {
            Map<String, Double> shrunk = new LinkedHashMap<>();
            SourceTarget.base(topology, window, config, forecasts)
                    .forEach((id, t) -> shrunk.put(id, Math.min(t.base(), rates.get(id))));
            base = Ds2Formula.estimate(topology, metrics, shrunk);
        }
        // Both maps, the metrics and the operators are in topological order: walked side by side,
        // not looked up by id for each of a large graph's operators.
        List<OperatorSpec> specs = topology.operators();
        List<OperatorDecision> ops = new ArrayList<>(specs.size());
        Iterator<Ds2Formula.Estimate> baseInOrder = base.values().iterator();
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
     * Whether the plan carries more than the running configuration, beyond the noise tolerance: an
     * operator held at its bound can make every rescale useless, and a useless rescale is not
     * taken.
     */
    static boolean improves(
            List<OperatorDecision> ops, PolicyConfig config, Capacities capacities) {
        return share(ops, true, capacities)
                > share(ops, false, capacities) * (1 + config.noiseTolerance());
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
