package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ParallelismBounds;
import dev.flowscale.policy.api.PolicyConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the running configuration is enough, judged on what was measured and nothing planned:
 * every operator sustains its share of the sources' base rates at the target utilization (within
 * the noise tolerance), and every source's backlog drains within the catch-up time with the spare
 * capacity of the graph's bottleneck. Only when it is not enough is a rescale needed; otherwise a
 * rescale can only be a trim that pays for itself.
 *
 * @param needed why a rescale is needed, if it is
 * @param headroom capacity of the bottleneck operator over its required rate (1 = no spare)
 * @param explain the verdict for the decision's reasons
 * @param outOfBounds some operator runs outside its configured bounds
 * @param measuredShort some operator whose capacity was measured cannot sustain its target
 * @param drainSeconds how long the slowest source's backlog takes to drain at the running
 *     configuration (0: nothing to drain; infinite: it never drains)
 */
record RunningCheck(
        Optional<String> needed,
        double headroom,
        List<String> explain,
        boolean outOfBounds,
        boolean measuredShort,
        double drainSeconds) {

    /**
     * How far a source's emitted rate may lie above its offered rate in one window without meaning
     * a drain, whatever the noise tolerance: a real engine counts records in batches, and a
     * window's edges split them (a 0.2 % excess is seen at a noise tolerance of 0 on a source with
     * no backlog). A drain that matters moves far more than this.
     */
    private static final double WINDOW_EDGES = 0.01;

    /** How the reason of a needed rescale begins. */
    static final String NEEDED = "rescale needed: ";

    /**
     * @param inOrder the window's metrics by topological position ({@link Ds2Formula#inOrder})
     * @param base every operator's estimate at the sources' base rates, in topological order
     */
    static RunningCheck of(
            JobTopology t,
            MetricsWindow w,
            OperatorMetrics[] inOrder,
            Map<String, Ds2Formula.Estimate> base,
            Map<String, SourceTarget> sources,
            PolicyConfig c) {
        List<String> why = new ArrayList<>(outOfBounds(t, c));
        boolean outOfBounds = !why.isEmpty();
        double headroom = Double.POSITIVE_INFINITY;
        String bottleneck = null;
        boolean measuredShort = false;
        int i = 0;
        for (Ds2Formula.Estimate e : base.values()) {
            OperatorMetrics m = inOrder[i++];
            double capacity =
                    c.skewCorrection()
                            ? SkewCorrection.sustainableRate(m, e.capacityPerInstance())
                            : e.capacityPerInstance() * m.parallelism();
            if (e.targetInputRate() <= 0 || capacity <= 0) {
                continue;
            }
            if (e.targetInputRate() > capacity * c.targetUtilization() * (1 + c.noiseTolerance())) {
                measuredShort = true;
                why.add(cannotSustain(e, capacity, c.targetUtilization()));
            }
            if (capacity / e.targetInputRate() < headroom) {
                headroom = capacity / e.targetInputRate();
                bottleneck = e.operatorId();
            }
        }
        List<String> explain = new ArrayList<>();
        explain.add(
                bottleneck == null
                        ? "running configuration: no operator has a required rate"
                        : String.format(
                                "running configuration: bottleneck '%s' has capacity %.2f× its required rate",
                                bottleneck, headroom));
        Set<String> shared = bottleneck == null ? Set.of() : sourcesOf(t, bottleneck);
        Drain together = together(t, inOrder, base, sources, shared, bottleneck, headroom, c);
        double drainSeconds = drain(w, sources, shared, c, headroom, together, why, explain);
        Optional<String> needed =
                why.isEmpty() ? Optional.empty() : Optional.of(NEEDED + String.join("; ", why));
        return new RunningCheck(
                needed, headroom, explain, outOfBounds, measuredShort, drainSeconds);
    }

    /**
     * Whether a rescale is needed only to drain the backlog sooner: every operator sustains its
     * target and runs within its bounds.
     */
    boolean drainOnly() {
        return needed.isPresent() && !measuredShort && !outOfBounds;
    }

    /**
     * The backlogs of the sources upstream of the bottleneck ({@code shared}) in the records they
     * make the bottleneck process, and the bottleneck's spare rate: one DS2 pass over the backlogs
     * as rates. A record of one source may cost the bottleneck many times what a record of another
     * does; counted in source records, a backlog that drains the costly source first seems to grow
     * while the bottleneck works through it at its full spare.
     */
    private static Drain together(
            JobTopology t,
            OperatorMetrics[] inOrder,
            Map<String, Ds2Formula.Estimate> base,
            Map<String, SourceTarget> sources,
            Set<String> shared,
            String bottleneck,
            double headroom,
            PolicyConfig c) {
        if (shared.isEmpty() || Double.isInfinite(headroom)) {
            return new Drain(0, 0);
        }
        Map<String, Double> backlogs = new HashMap<>();
        boolean any = false;
        for (Map.Entry<String, SourceTarget> s : sources.entrySet()) {
            double excess = shared.contains(s.getKey()) ? excess(s.getValue(), c) : 0;
            backlogs.put(s.getKey(), excess);
            any |= excess > 0;
        }
        if (!any) {
            return new Drain(0, 0);
        }
        double weighted =
                Ds2Formula.estimate(t, inOrder, backlogs).get(bottleneck).targetInputRate();
        return new Drain(
                weighted, base.get(bottleneck).targetInputRate() * (tolerated(headroom, c) - 1));
    }

    /**
     * The bottleneck's headroom within the noise tolerance, as its target is judged: the spare is a
     * small difference of two measured rates, so a capacity measured a little low would call a
     * rescale where the trim that made this configuration kept the spare to drain its downtime. A
     * bottleneck measured at or below its target has no spare, whatever the tolerance.
     */
    static double tolerated(double headroom, PolicyConfig c) {
        // without measured spare no tolerance makes one: a backlog behind it never drains
        return headroom > 1 ? headroom * (1 + c.noiseTolerance()) : headroom;
    }

    /** A backlog and the spare rate that drains it, in the bottleneck's input records. */
    private record Drain(double backlog, double spare) {}

    /**
     * Each source's backlog drains with the spare of the bottleneck. The sources upstream of the
     * bottleneck ({@code shared}) drain through its spare together: whichever drains first leaves
     * its share to the others, so each drains within the time their backlogs take together, in the
     * bottleneck's records, over its spare (one source's share alone would call a rescale where the
     * spare the others free drains it in time). Returns the longest drain.
     */
    private static double drain(
            MetricsWindow w,
            Map<String, SourceTarget> sources,
            Set<String> shared,
            PolicyConfig c,
            double headroom,
            Drain sharedDrain,
            List<String> why,
            List<String> explain) {
        double longest = 0;
        for (Map.Entry<String, SourceTarget> s : sources.entrySet()) {
            double excess = excess(s.getValue(), c);
            if (excess <= 0) {
                continue;
            }
            boolean together = shared.contains(s.getKey()) && !Double.isInfinite(headroom);
            double spare =
                    Double.isInfinite(headroom)
                            ? w.metrics(s.getKey()).orElseThrow().trueProcessingRate()
                            : together
                                    ? sharedDrain.spare()
                                    : s.getValue().base() * (tolerated(headroom, c) - 1);
            excess = together ? sharedDrain.backlog() : excess;
            double seconds = spare > 0 ? excess / spare : Double.POSITIVE_INFINITY;
            longest = Math.max(longest, seconds);
            String line =
                    String.format(
                            "source '%s' backlog %.0f records drains in %s at the running configuration"
                                    + " (catch-up time %d s, one window more allowed)",
                            s.getKey(),
                            s.getValue().owed(),
                            Double.isInfinite(seconds) ? "never" : String.format("%.0f s", seconds),
                            c.catchUpDuration().toSeconds());
            explain.add(line);
            if (c.catchUpSeconds() > 0
                    && seconds > c.catchUpSeconds() + w.length().toNanos() / 1e9) {
                why.add(line);
            }
        }
        return longest;
    }

    /**
     * Written for every operator short of its target on every decision, so without a formatter: see
     * {@link Decimals}.
     */
    private static String cannotSustain(
            Ds2Formula.Estimate e, double capacity, double utilization) {
        StringBuilder line = new StringBuilder(96);
        line.append('\'').append(e.operatorId()).append("' cannot sustain its target: needs ");
        Decimals.fixed(line, e.targetInputRate(), 1).append(" rec/s, runs ");
        Decimals.fixed(line, capacity, 1).append(" rec/s at utilization ");
        return Decimals.fixed(line, utilization, 2).toString();
    }

    /** The sources with a path to {@code operator}. */
    private static Set<String> sourcesOf(JobTopology t, String operator) {
        Set<String> seen = new HashSet<>();
        Deque<String> open = new ArrayDeque<>(List.of(operator));
        Set<String> sources = new HashSet<>();
        while (!open.isEmpty()) {
            String id = open.pop();
            if (seen.add(id)) {
                if (t.isSource(id)) {
                    sources.add(id);
                }
                open.addAll(t.inputsOf(id));
            }
        }
        return sources;
    }

    /** Operators running outside their configured bounds must be moved into them. */
    private static List<String> outOfBounds(JobTopology t, PolicyConfig c) {
        List<String> why = new ArrayList<>();
        for (OperatorSpec op : t.operators()) {
            ParallelismBounds b = c.boundsOf(op.id());
            int upper = Math.min(b.max(), op.keyGroups());
            if (op.parallelism() < Math.min(b.min(), upper) || op.parallelism() > upper) {
                why.add(
                        String.format(
                                "'%s' runs at %d, outside its bounds [%d, %d]",
                                op.id(), op.parallelism(), Math.min(b.min(), upper), upper));
            }
        }
        return why;
    }

    /**
     * Why the window's rates are still a drain's: some source emitted more than it was offered,
     * beyond the noise tolerance and the window's edges, so it worked through a backlog during the
     * window and the operators behind it ran with full buffers. A trim decided now would restart
     * with those buffers' records still to pass through fewer instances, on top of its own
     * downtime's backlog; it waits for a window at the offered rate.
     *
     * @param inOrder the window's metrics by topological position ({@link Ds2Formula#inOrder})
     */
    static Optional<String> drainingInWindow(
            JobTopology t,
            OperatorMetrics[] inOrder,
            Map<String, SourceTarget> sources,
            PolicyConfig c) {
        for (int i = 0; i < inOrder.length; i++) {
            SourceTarget s = t.isSourceAt(i) ? sources.get(inOrder[i].operatorId()) : null;
            double emitted = inOrder[i].observedProcessingRate();
            if (s != null
                    && s.offered() > 0
                    && emitted > s.offered() * (1 + Math.max(c.noiseTolerance(), WINDOW_EDGES))) {
                return Optional.of(
                        String.format(
                                "scale-down held: source '%s' emitted %.1f rec/s in the window,"
                                        + " above the %.1f rec/s offered: it was still draining a"
                                        + " backlog",
                                inOrder[i].operatorId(), emitted, s.offered()));
            }
        }
        return Optional.empty();
    }

    /**
     * Backlog beyond what may stand: the target lag, and at least one second of the source's rate.
     */
    static double excess(SourceTarget s, PolicyConfig c) {
        double standing = s.base() * c.targetMaxLag().toNanos() / 1e9;
        double drained = Math.max(1, Math.max(s.base(), standing));
        return s.owed() > drained ? s.owed() - standing : 0;
    }
}
