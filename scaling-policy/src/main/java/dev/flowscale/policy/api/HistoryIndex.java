package dev.flowscale.policy.api;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What the policy reads per operator from a {@link ScalingHistory}'s decisions, kept as the
 * decisions are added rather than found by scanning them at every decision, so a decision's work
 * does not grow with the history: the capacities each operator's last {@value #OBSERVED} decisions
 * recorded ({@link ObservedCapacity}), where each operator's trailing run of decisions that
 * recommended a scale-down at one parallelism began, and where the latest two rescales and the
 * latest scale-down were decided. Immutable; built with a {@link Builder} that the loop feeds once
 * per decision, or at once from a list of decisions.
 */
public final class HistoryIndex {

    /** Decisions whose recorded capacities are observed; older ones describe a job since moved. */
    public static final int OBSERVED = 200;

    /** No decision. */
    public static final HistoryIndex EMPTY = new Builder().build();

    private final long first;
    private final long next;
    private final ScalingDecision last;
    private final Map<String, ObservedCapacity> observed;
    // the same, in the order of the latest decision's operators (a policy's are topological), so
    // a decision that reads every operator's in that order looks none up by id
    private final String[] ids;
    private final ObservedCapacity[] inOrder;
    private final List<ObservedCapacity> inOrderView;
    // the topology whose order was last found to be the latest decision's: a job's decisions
    // read through the same topology, and comparing 10,000 ids per decision cost more than the
    // reads it saved. A benign race: any thread that writes it has checked the order
    private volatile JobTopology matched;
    private final Map<String, Run> runs;
    private final long latestScale;
    private final long scaleBefore;
    private final long latestScaleDown;

    /** A trailing run of decisions recommending a scale-down from {@code parallelism}. */
    private record Run(int parallelism, long start, long end) {}

    private HistoryIndex(Builder b) {
        this.first = b.next - b.size;
        this.next = b.next;
        this.last = b.last;
        Collection<OperatorDecision> latest = last == null ? List.of() : last.operators().values();
        this.ids = new String[latest.size()];
        this.inOrder = new ObservedCapacity[ids.length];
        this.inOrderView = Collections.unmodifiableList(Arrays.asList(inOrder));
        this.observed = Collections.unmodifiableMap(observed(b.observed, latest));
        this.runs = Map.copyOf(b.runs);
        this.latestScale = b.latestScale;
        this.scaleBefore = b.scaleBefore;
        this.latestScaleDown = b.latestScaleDown;
    }

    /**
     * What a decision reads of every operator's samples, written into one array in the latest
     * decision's operator order, then the other operators': a decision reads them in that order, so
     * its reads are one pass over adjacent memory.
     */
    private Map<String, ObservedCapacity> observed(
            Map<String, CapacitySamples> samples, Collection<OperatorDecision> latest) {
        double[] packed = new double[packedSize(samples)];
        Map<String, ObservedCapacity> read = new HashMap<>(samples.size() * 4 / 3 + 1);
        int at = 0;
        int k = 0;
        for (OperatorDecision op : latest) {
            CapacitySamples held = samples.get(op.operatorId());
            ObservedCapacity c = held == null ? ObservedCapacity.NONE : read.get(op.operatorId());
            if (c == null) {
                c = held.observed(packed, at);
                at += held.packedSize();
                read.put(op.operatorId(), c);
            }
            ids[k] = op.operatorId();
            inOrder[k++] = c;
        }
        for (Map.Entry<String, CapacitySamples> e : samples.entrySet()) {
            if (!read.containsKey(e.getKey())) {
                read.put(e.getKey(), e.getValue().observed(packed, at));
                at += e.getValue().packedSize();
            }
        }
        return read;
    }

    private static int packedSize(Map<String, CapacitySamples> samples) {
        int size = 0;
        for (CapacitySamples held : samples.values()) {
            size += held.packedSize();
        }
        return size;
    }

    /** The index of these decisions, oldest first. */
    public static HistoryIndex of(List<ScalingDecision> decisions) {
        Builder b = new Builder();
        for (int i = 0; i < decisions.size(); i++) {
            b.add(decisions.get(i), i + 1);
        }
        return b.build();
    }

    /** Whether this index was built from exactly these decisions (their count and the latest). */
    boolean covers(List<ScalingDecision> decisions) {
        return decisions.size() == next - first
                && (decisions.isEmpty() || decisions.get(decisions.size() - 1) == last);
    }

    /** The capacities the operator's last {@value #OBSERVED} decisions recorded. */
    public ObservedCapacity observed(String operatorId) {
        return observed.getOrDefault(operatorId, ObservedCapacity.NONE);
    }

    /**
     * As {@link #observed(String)}, read without a lookup by id when the operator is at {@code
     * position} of the latest decision's operators: pass its topological position.
     */
    public ObservedCapacity observed(int position, String operatorId) {
        return position >= 0 && position < ids.length && operatorId.equals(ids[position])
                ? inOrder[position]
                : observed(operatorId);
    }

    /**
     * {@link #observed(String)} of every operator in {@code order}, by position: matched to the
     * latest decision's operators once, so a decision that reads every operator's reads by
     * position, and without a copy when {@code order} is theirs (a policy lists a decision's
     * operators in the topological order it reads them in).
     */
    public List<ObservedCapacity> observedInOrder(List<String> order) {
        if (isLatestOrder(order)) {
            return inOrderView;
        }
        ObservedCapacity[] read = new ObservedCapacity[order.size()];
        for (int k = 0; k < read.length; k++) {
            read[k] = observed(k, order.get(k));
        }
        return List.of(read);
    }

    /**
     * {@link #observedInOrder(List)} of the topology's order, compared with the latest decision's
     * operators once per topology rather than once per read.
     */
    public List<ObservedCapacity> observedInOrder(JobTopology topology) {
        if (matched == topology) {
            return inOrderView;
        }
        List<ObservedCapacity> read = observedInOrder(topology.topologicalOrder());
        if (read == inOrderView) {
            matched = topology;
        }
        return read;
    }

    private boolean isLatestOrder(List<String> order) {
        if (order.size() != ids.length) {
            return false;
        }
        for (int k = 0; k < ids.length; k++) {
            if (!ids[k].equals(order.get(k))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The position in the decisions of the first of the trailing decisions that each recommended
     * scaling the operator down from {@code parallelism}; the number of decisions when the latest
     * did not.
     */
    public int scaleDownRunStart(String operatorId, int parallelism) {
        Run r = runs.get(operatorId);
        if (r == null || r.end() != next - 1 || r.parallelism() != parallelism) {
            return (int) (next - first);
        }
        return (int) (Math.max(r.start(), first) - first);
    }

    /** The position in the decisions of the latest that decided a rescale, if they hold one. */
    public OptionalInt latestScale() {
        return position(latestScale);
    }

    /** The position of the rescale decided before the latest one, if the decisions hold it. */
    public OptionalInt scaleBefore() {
        return position(scaleBefore);
    }

    /** The position of the latest rescale that lowered some operator, if the decisions hold one. */
    public OptionalInt latestScaleDown() {
        return position(latestScaleDown);
    }

    private OptionalInt position(long seq) {
        return seq >= first ? OptionalInt.of((int) (seq - first)) : OptionalInt.empty();
    }

    /**
     * Adds decisions one at a time. Not thread-safe; {@link #build} takes an immutable copy, in
     * time linear in the operators.
     */
    public static final class Builder {
        private final Deque<ScalingDecision> window = new ArrayDeque<>();
        private final Map<String, CapacitySamples> observed = new HashMap<>();
        private final Map<String, Run> runs = new HashMap<>();
        private long next;
        private int size;
        private ScalingDecision last;
        private long latestScale = -1;
        private long scaleBefore = -1;
        private long latestScaleDown = -1;

        /**
         * Adds the latest decision; {@code decisionsKept} is how many decisions the history holds
         * with it (the oldest beyond that were dropped).
         */
        public Builder add(ScalingDecision decision, int decisionsKept) {
            long seq = next++;
            size = decisionsKept;
            last = decision;
            window.addLast(decision);
            if (decision.isScale()) {
                scaleBefore = latestScale;
                latestScale = seq;
                if (decision.operators().values().stream().anyMatch(Builder::lowers)) {
                    latestScaleDown = seq;
                }
            }
            for (OperatorDecision op : decision.operators().values()) {
                double capacity = capacity(op);
                if (capacity > 0 && Double.isFinite(capacity)) {
                    observed.computeIfAbsent(op.operatorId(), id -> new CapacitySamples())
                            .add(op.currentParallelism(), capacity, seq);
                }
                extendRun(op, seq);
            }
            while (window.size() > Math.min(OBSERVED, decisionsKept)) {
                forget(window.pollFirst());
            }
            return this;
        }

        private void extendRun(OperatorDecision op, long seq) {
            int p = op.currentParallelism();
            if (op.recommendedParallelism() >= p) {
                runs.remove(op.operatorId());
                return;
            }
            Run old = runs.get(op.operatorId());
            boolean continues = old != null && old.end() == seq - 1 && old.parallelism() == p;
            runs.put(op.operatorId(), new Run(p, continues ? old.start() : seq, seq));
        }

        private void forget(ScalingDecision decision) {
            for (OperatorDecision op : decision.operators().values()) {
                double capacity = capacity(op);
                if (capacity > 0 && Double.isFinite(capacity)) {
                    CapacitySamples left = observed.get(op.operatorId());
                    left.remove(op.currentParallelism(), capacity);
                    if (left.isEmpty()) {
                        observed.remove(op.operatorId());
                    }
                }
            }
        }

        private static boolean lowers(OperatorDecision op) {
            return op.newParallelism() < op.currentParallelism();
        }

        private static double capacity(OperatorDecision op) {
            return op.capacityPerInstance() * op.currentParallelism();
        }

        public HistoryIndex build() {
            return new HistoryIndex(this);
        }
    }
}
