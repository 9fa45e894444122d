package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.ObservedCapacity;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.model.HotKeyAnalysis;
import dev.flowscale.policy.model.IneffectiveScaleUp;
import dev.flowscale.policy.model.KeyGroupLoad;
import dev.flowscale.policy.model.ScalabilityFit;
import dev.flowscale.policy.model.ScalabilityModel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Each operator's capacity curve, learned from the job's own history. Every past decision recorded
 * the parallelism an operator ran at and the capacity measured there; with two parallelisms or more
 * the curve is fitted to those points ({@link ScalabilityFit}: a power law or the Universal
 * Scalability Law) and anchored at the current window. With one, capacity above it is assumed to
 * grow as p^α with the configured prior α (below it, linearly: both err on the side of more
 * instances), so a first scale-up overshoots rather than falls short and the next trim, sized on a
 * fitted curve, corrects it. A scale-up that added almost no capacity ({@link IneffectiveScaleUp})
 * caps the operator where it was. Without learning, every curve is DS2's linear one.
 *
 * <p>With skew correction, an operator whose input has a hot spot ({@link HotKeyAnalysis#hotSpot})
 * carries only what its busiest instance keeps up with: the curve's capacity per instance divided
 * by the busiest instance's share at that parallelism. Such a curve flattens towards the hot key
 * group's limit, so sizing searches it and stops where more instances no longer help.
 */
final class Capacities {

    /**
     * Instances beyond the point where the capacity is this close to its best add almost nothing.
     */
    static final double NEARLY_BEST = 0.05;

    private final Map<String, ScalabilityModel> fitted = new HashMap<>();
    private final Map<String, OperatorMetrics> measured = new HashMap<>();
    private final Map<String, IneffectiveScaleUp.Verdict> ineffective = new HashMap<>();
    private final Map<String, HotKeyAnalysis.HotSpot> hotSpots = new HashMap<>();
    private final Map<String, Integer> keyGroups = new HashMap<>();
    private final Map<String, KeyGroupLoad> keyGroupLoads = new HashMap<>();
    private final double prior;

    private Capacities(double prior) {
        this.prior = prior;
    }

    static Capacities of(
            JobTopology topology,
            MetricsWindow window,
            ScalingHistory history,
            PolicyConfig config) {
        return of(topology, Ds2Formula.inOrder(topology, window), window, history, config);
    }

    /** With the window's metrics by topological position ({@link Ds2Formula#inOrder}). */
    static Capacities of(
            JobTopology topology,
            OperatorMetrics[] inOrder,
            MetricsWindow window,
            ScalingHistory history,
            PolicyConfig config) {
        Capacities c = new Capacities(config.learnScalability() ? config.scalabilityPrior() : 1);
        if (config.skewCorrection()) {
            c.findHotSpots(topology, inOrder);
        }
        if (!config.learnScalability()) {
            return c;
        }
        for (OperatorMetrics m : window.operators().values()) {
            if (!topology.isSource(m.operatorId()) && m.trueProcessingRate() > 0) {
                c.learn(m, history.index().observed(m.operatorId()));
            }
        }
        return c;
    }

    /**
     * Fits the operator's curve to the capacities its recent decisions recorded and the one
     * measured now, once it ran at two parallelisms or more; checks whether its latest scale-up was
     * ineffective.
     */
    private void learn(OperatorMetrics m, ObservedCapacity observed) {
        int p = m.parallelism();
        double now = m.trueProcessingRate();
        measured.put(m.operatorId(), m);
        if (observed.distinctWith(p) < 2) {
            return;
        }
        fitted.put(
                m.operatorId(),
                ScalabilityFit.fitMedians(observed.medians(p, now)).anchoredAt(p, now));
        observed.before(p).stream()
                .boxed()
                .findFirst()
                .flatMap(
                        from ->
                                IneffectiveScaleUp.check(
                                        m.operatorId(),
                                        from,
                                        observed.upperMedian(from, p, now),
                                        p,
                                        observed.upperMedian(p, p, now),
                                        IneffectiveScaleUp.DEFAULT_MIN_GAIN_SHARE))
                .ifPresent(v -> ineffective.put(m.operatorId(), v));
    }

    private void findHotSpots(JobTopology topology, OperatorMetrics[] inOrder) {
        List<OperatorSpec> specs = topology.operators();
        for (int i = 0; i < inOrder.length; i++) {
            OperatorMetrics m = inOrder[i];
            int k = specs.get(i).keyGroups();
            if (!topology.isSourceAt(i)) {
                HotKeyAnalysis.hotSpot(m, k).ifPresent(h -> hotSpots.put(m.operatorId(), h));
                keyGroups.put(m.operatorId(), k);
                if (hotSpots.containsKey(m.operatorId()) && m.keyGroupRates().size() == k) {
                    KeyGroupLoad.of(m.keyGroupRates())
                            .ifPresent(load -> keyGroupLoads.put(m.operatorId(), load));
                }
            }
        }
    }

    /**
     * The input rate the operator carries at parallelism p: the measured per-instance capacity
     * scaled by the curve, limited by the busiest instance when the input has a hot spot. The
     * busiest instance's share is read off the measured per-key-group rates where the engine counts
     * them ({@link KeyGroupLoad}), otherwise from the one-hot-spot model.
     */
    double at(String operatorId, int p, double measuredPerInstance) {
        double all = aggregate(operatorId, p, measuredPerInstance);
        HotKeyAnalysis.HotSpot hot = hotSpots.get(operatorId);
        if (hot == null) {
            return all;
        }
        KeyGroupLoad load = keyGroupLoads.get(operatorId);
        double busiest =
                load != null
                        ? load.busiestShare(p)
                        : HotKeyAnalysis.busiestShare(hot.share(), p, keyGroups.get(operatorId));
        return all / p / busiest;
    }

    private double aggregate(String operatorId, int p, double measuredPerInstance) {
        ScalabilityModel m = fitted.get(operatorId);
        OperatorMetrics now = measured.get(operatorId);
        if (m != null) {
            return m.capacityAt(p);
        }
        // A measured hot spot is the operator's non-linearity: the prior is not stacked on it.
        if (now == null
                || p <= now.parallelism()
                || prior == 1
                || hotSpots.containsKey(operatorId)) {
            return p * measuredPerInstance;
        }
        return now.trueProcessingRate() * Math.pow((double) p / now.parallelism(), prior);
    }

    /**
     * The smallest parallelism whose capacity reaches {@code required}: on a fitted curve, up to
     * {@code max}, empty when none does (more instances will not help); otherwise unbounded.
     */
    OptionalInt smallest(String operatorId, double required, int max, double measuredPerInstance) {
        if (hotSpots.containsKey(operatorId)) {
            for (int q = 1; q <= max; q++) {
                if (at(operatorId, q, measuredPerInstance) >= required * (1 - 1e-9)) {
                    return OptionalInt.of(q);
                }
            }
            return OptionalInt.empty();
        }
        ScalabilityModel m = fitted.get(operatorId);
        if (m != null) {
            return m.smallestParallelismFor(required, max);
        }
        int p = Math.max(1, Ds2Formula.ceil(required / measuredPerInstance));
        OperatorMetrics now = measured.get(operatorId);
        if (now != null && prior < 1 && p > now.parallelism()) {
            p =
                    Ds2Formula.ceil(
                            now.parallelism()
                                    * Math.pow(required / now.trueProcessingRate(), 1 / prior));
        }
        return OptionalInt.of(
                Math.max(
                        1,
                        p)); // without a fitted curve capacity grows without end; bounds clamp it
    }

    /**
     * Where more instances stop helping an operator whose curve never reaches what it must carry:
     * the smallest parallelism up to {@code max} within {@value #NEARLY_BEST} of the most that any
     * parallelism up to {@code max} carries.
     */
    int mostUseful(String operatorId, int max, double measuredPerInstance) {
        return within(operatorId, max, measuredPerInstance, NEARLY_BEST);
    }

    /**
     * The smallest parallelism up to {@code max} that carries the most any does: where an operator
     * that cannot carry its planned rate drains a backlog fastest.
     */
    int mostCapable(String operatorId, int max, double measuredPerInstance) {
        return within(operatorId, max, measuredPerInstance, 0);
    }

    private int within(String operatorId, int max, double measuredPerInstance, double tolerance) {
        double best = 0;
        for (int q = 1; q <= max; q++) {
            best = Math.max(best, at(operatorId, q, measuredPerInstance));
        }
        for (int q = 1; q <= max; q++) {
            if (at(operatorId, q, measuredPerInstance) >= best * (1 - tolerance)) {
                return q;
            }
        }
        return max;
    }

    Optional<HotKeyAnalysis.HotSpot> hotSpot(String operatorId) {
        return Optional.ofNullable(hotSpots.get(operatorId));
    }

    /** The explanation of the curve used, when it is not DS2's linear one. */
    Optional<String> explain(String operatorId) {
        ScalabilityModel m = fitted.get(operatorId);
        if (m != null) {
            return m.kind() == ScalabilityModel.Kind.LINEAR
                    ? Optional.empty()
                    : Optional.of(m.explanation());
        }
        OperatorMetrics now = measured.get(operatorId);
        return now == null || prior == 1 || hotSpots.containsKey(operatorId)
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                "only parallelism %d measured: capacity assumed to grow as p^%.2f above it",
                                now.parallelism(), prior));
    }

    Optional<IneffectiveScaleUp.Verdict> ineffective(String operatorId) {
        return Optional.ofNullable(ineffective.get(operatorId));
    }
}
