package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.ObservedCapacity;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.model.FittedCurves;
import dev.flowscale.policy.model.HotKeyAnalysis;
import dev.flowscale.policy.model.IneffectiveScaleUp;
import dev.flowscale.policy.model.KeyGroupLoad;
import dev.flowscale.policy.model.ScalabilityModel;
import java.util.List;
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

    private final OrderedLookup positions;
    // by topological position, null where nothing is known beyond the window's linear capacity:
    // sizing asks about every operator several times per plan, in topological order, so read by
    // id through the ordered lookup rather than a hash map
    private final Curve[] curves;
    // by topological position, the window's metrics of each operator whose capacity is learned:
    // apart from the curves, so that the many operators with nothing fitted cost no object
    private final OperatorMetrics[] measured;
    private final double prior;
    // one operator's median points at a time, while its curve is fitted or reused
    private int[] points = new int[8];
    private double[] medians = new double[8];

    /** What is known of one operator's capacity beyond its window's metrics. */
    private static final class Curve {
        private ScalabilityModel fitted;
        private IneffectiveScaleUp.Verdict ineffective;
        private HotKeyAnalysis.HotSpot hot;
        private int keyGroups;
        private KeyGroupLoad load;
        // the last searches for the most capable and the most useful parallelism: every plan of a
        // decision asks them again with the same bound and capacity
        private final Search[] searches = new Search[2];
    }

    /** A search of {@link #within} and its result. */
    private record Search(int max, double measuredPerInstance, double tolerance, int result) {}

    private Capacities(JobTopology topology, double prior) {
        this.positions = new OrderedLookup(topology);
        this.curves = new Curve[topology.topologicalOrder().size()];
        this.measured = new OperatorMetrics[curves.length];
        this.prior = prior;
    }

    private Curve curveAt(int position) {
        Curve curve = curves[position];
        if (curve == null) {
            curve = new Curve();
            curves[position] = curve;
        }
        return curve;
    }

    static Capacities of(
            JobTopology topology,
            MetricsWindow window,
            ScalingHistory history,
            PolicyConfig config) {
        return of(
                topology,
                Ds2Formula.inOrder(topology, window),
                window,
                history,
                config,
                new FittedCurves());
    }

    /**
     * With the window's metrics by topological position ({@link Ds2Formula#inOrder}), reusing the
     * curves {@code fitted} to unchanged points.
     */
    static Capacities of(
            JobTopology topology,
            OperatorMetrics[] inOrder,
            MetricsWindow window,
            ScalingHistory history,
            PolicyConfig config,
            FittedCurves fitted) {
        Capacities c =
                new Capacities(topology, config.learnScalability() ? config.scalabilityPrior() : 1);
        if (config.skewCorrection()) {
            c.findHotSpots(topology, inOrder);
        }
        if (!config.learnScalability()) {
            return c;
        }
        List<ObservedCapacity> observed = history.index().observedInOrder(topology);
        for (int i = 0; i < inOrder.length; i++) {
            OperatorMetrics m = inOrder[i];
            if (!topology.isSourceAt(i) && m.trueProcessingRate() > 0) {
                c.learn(i, m, observed.get(i), fitted);
            }
        }
        return c;
    }

    /**
     * Fits the operator's curve to the capacities its recent decisions recorded and the one
     * measured now, once it ran at two parallelisms or more; checks whether its latest scale-up was
     * ineffective.
     */
    private void learn(
            int position, OperatorMetrics m, ObservedCapacity observed, FittedCurves fitted) {
        int p = m.parallelism();
        double now = m.trueProcessingRate();
        measured[position] = m;
        if (observed.distinctWith(p) < 2) {
            return;
        }
        Curve curve = curveAt(position);
        curve.fitted = fit(m.operatorId(), observed, p, now, fitted).anchoredAt(p, now);
        OptionalInt from = observed.before(p);
        if (from.isPresent()) {
            IneffectiveScaleUp.check(
                            m.operatorId(),
                            from.getAsInt(),
                            observed.upperMedian(from.getAsInt(), p, now),
                            p,
                            observed.upperMedian(p, p, now),
                            IneffectiveScaleUp.DEFAULT_MIN_GAIN_SHARE)
                    .ifPresent(v -> curve.ineffective = v);
        }
    }

    /** The curve fitted to the operator's median points, read into this decision's arrays. */
    private ScalabilityModel fit(
            String operatorId, ObservedCapacity observed, int p, double now, FittedCurves fitted) {
        int distinct = observed.distinctWith(p);
        if (points.length < distinct) {
            points = new int[2 * distinct];
            medians = new double[2 * distinct];
        }
        int n = observed.medians(p, now, points, medians);
        return fitted.fit(operatorId, points, medians, n);
    }

    private void findHotSpots(JobTopology topology, OperatorMetrics[] inOrder) {
        List<OperatorSpec> specs = topology.operators();
        for (int i = 0; i < inOrder.length; i++) {
            OperatorMetrics m = inOrder[i];
            int k = specs.get(i).keyGroups();
            Optional<HotKeyAnalysis.HotSpot> hot =
                    topology.isSourceAt(i) ? Optional.empty() : HotKeyAnalysis.hotSpot(m, k);
            if (hot.isPresent()) {
                Curve curve = curveAt(i);
                curve.hot = hot.get();
                curve.keyGroups = k;
                if (m.keyGroupRates().size() == k) {
                    curve.load = KeyGroupLoad.of(m.keyGroupRates()).orElse(null);
                }
            }
        }
    }

    /** The operator's position, -1 where the graph has no such operator. */
    private int position(String operatorId) {
        return positions.of(operatorId);
    }

    /** The operator's curve, null where none is known or the graph has no such operator. */
    private Curve curve(String operatorId) {
        int position = positions.of(operatorId);
        return position < 0 ? null : curves[position];
    }

    /**
     * The input rate the operator carries at parallelism p: the measured per-instance capacity
     * scaled by the curve, limited by the busiest instance when the input has a hot spot. The
     * busiest instance's share is read off the measured per-key-group rates where the engine counts
     * them ({@link KeyGroupLoad}), otherwise from the one-hot-spot model.
     */
    double at(String operatorId, int p, double measuredPerInstance) {
        int position = positions.of(operatorId);
        Curve curve = position < 0 ? null : curves[position];
        OperatorMetrics now = position < 0 ? null : measured[position];
        if (curve == null && now == null) {
            return p * measuredPerInstance;
        }
        double all = aggregate(curve, now, p, measuredPerInstance);
        if (curve == null || curve.hot == null) {
            return all;
        }
        double busiest =
                curve.load != null
                        ? curve.load.busiestShare(p)
                        : HotKeyAnalysis.busiestShare(curve.hot.share(), p, curve.keyGroups);
        return all / p / busiest;
    }

    /**
     * The most the operator may carry at p: as {@link #at}, but where no curve is fitted yet, never
     * less than linear growth from the parallelism measured. The prior's slower growth sizes the
     * operator itself on the safe side; the operators after it are sized for what it may pass on,
     * on the same side.
     */
    double atMost(String operatorId, int p, double measuredPerInstance) {
        Curve curve = curve(operatorId);
        double at = at(operatorId, p, measuredPerInstance);
        // nothing known: at is linear already
        return curve != null && (curve.fitted != null || curve.hot != null)
                ? at
                : Math.max(at, p * measuredPerInstance);
    }

    private double aggregate(Curve curve, OperatorMetrics now, int p, double measuredPerInstance) {
        if (curve != null && curve.fitted != null) {
            return curve.fitted.capacityAt(p);
        }
        // A measured hot spot is the operator's non-linearity: the prior is not stacked on it.
        if (now == null
                || p <= now.parallelism()
                || prior == 1
                || curve != null && curve.hot != null) {
            return p * measuredPerInstance;
        }
        return now.trueProcessingRate() * Math.pow((double) p / now.parallelism(), prior);
    }

    /**
     * The smallest parallelism whose capacity reaches {@code required}: on a fitted curve, up to
     * {@code max}, empty when none does (more instances will not help); otherwise unbounded.
     */
    OptionalInt smallest(String operatorId, double required, int max, double measuredPerInstance) {
        Curve curve = curve(operatorId);
        if (curve != null && curve.hot != null) {
            for (int q = 1; q <= max; q++) {
                if (at(operatorId, q, measuredPerInstance) >= required * (1 - 1e-9)) {
                    return OptionalInt.of(q);
                }
            }
            return OptionalInt.empty();
        }
        if (curve != null && curve.fitted != null) {
            return curve.fitted.smallestParallelismFor(required, max);
        }
        int p = Math.max(1, Ds2Formula.ceil(required / measuredPerInstance));
        OperatorMetrics now = measured(operatorId);
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
        int position = positions.of(operatorId);
        if (position < 0 || curves[position] == null && measured[position] == null) {
            return scan(operatorId, max, measuredPerInstance, tolerance);
        }
        Curve curve = curveAt(position);
        int slot = tolerance == 0 ? 0 : 1;
        Search last = curve.searches[slot];
        if (last == null
                || last.max() != max
                || Double.compare(last.measuredPerInstance(), measuredPerInstance) != 0
                || Double.compare(last.tolerance(), tolerance) != 0) {
            int result =
                    curve.hot == null
                                    && curve.fitted != null
                                    && curve.fitted.kind() != ScalabilityModel.Kind.USL
                            ? bisect(curve.fitted, max, tolerance)
                            : scan(operatorId, max, measuredPerInstance, tolerance);
            last = new Search(max, measuredPerInstance, tolerance, result);
            curve.searches[slot] = last;
        }
        return last.result();
    }

    /** Every parallelism up to {@code max} evaluated: the curve may rise and fall. */
    private int scan(String operatorId, int max, double measuredPerInstance, double tolerance) {
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

    /**
     * As {@link #scan} on a curve that never falls (linear or power law: Math.pow is
     * semi-monotonic), in logarithmic time: the best is at {@code max}, and the smallest
     * parallelism within the tolerance of it is found by bisection, the same one the scan finds.
     */
    private static int bisect(ScalabilityModel curve, int max, double tolerance) {
        double least = curve.capacityAt(max) * (1 - tolerance);
        int lo = 1;
        int hi = max;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (curve.capacityAt(mid) >= least) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    Optional<HotKeyAnalysis.HotSpot> hotSpot(String operatorId) {
        Curve curve = curve(operatorId);
        return Optional.ofNullable(curve == null ? null : curve.hot);
    }

    /** The explanation of the curve used, when it is not DS2's linear one. */
    Optional<String> explain(String operatorId) {
        Curve curve = curve(operatorId);
        ScalabilityModel m = curve == null ? null : curve.fitted;
        if (m != null) {
            return m.kind() == ScalabilityModel.Kind.LINEAR
                    ? Optional.empty()
                    : Optional.of(m.explanation());
        }
        OperatorMetrics now = measured(operatorId);
        return now == null || prior == 1 || curve != null && curve.hot != null
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                "only parallelism %d measured: capacity assumed to grow as p^%.2f above it",
                                now.parallelism(), prior));
    }

    /** The window's metrics the operator's capacity is learned from, null where none are. */
    private OperatorMetrics measured(String operatorId) {
        int position = positions.of(operatorId);
        return position < 0 ? null : measured[position];
    }

    Optional<IneffectiveScaleUp.Verdict> ineffective(String operatorId) {
        Curve curve = curve(operatorId);
        return Optional.ofNullable(curve == null ? null : curve.ineffective);
    }
}
