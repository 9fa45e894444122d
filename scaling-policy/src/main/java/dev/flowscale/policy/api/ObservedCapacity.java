package dev.flowscale.policy.api;

import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * What the policy reads of the capacities one operator's recent decisions recorded (capacity per
 * instance × parallelism), per parallelism: how many values are held, the latest decision that
 * recorded one, and only the values around the middle of their sorted order. Medians, with or
 * without the capacity measured now, are read off those values exactly as over all of them, so its
 * size does not depend on how many decisions are observed ({@link CapacitySamples} holds them all).
 * Immutable.
 */
public final class ObservedCapacity {

    static final ObservedCapacity NONE = new ObservedCapacity(new double[0], 0, 0);

    /** Ranks kept per parallelism: from one below the middle rank ⌊n/2⌋ to one above it. */
    private static final int BELOW = 1;

    private static final int KEPT = 3;

    /**
     * Per parallelism held, {@value #STRIDE} values: the parallelism, the count of values, the
     * sequence number of the latest decision that recorded one, then the values of ranks ⌊n/2⌋ − 1
     * .. ⌊n/2⌋ + 1 (±∞ beyond the values). One array, all exact in a double (counts, parallelisms
     * and sequence numbers stay far below 2^53): a decision reads every operator's, and one array
     * per operator is one or two cache lines where an array per field was five or more. A {@link
     * HistoryIndex} writes every operator's into one array, in the order a decision reads them, and
     * each operator's capacity reads its slice from {@code from}: the reads of a whole decision are
     * one pass over adjacent memory, wherever the collector placed the objects.
     */
    private final double[] packed;

    private final int from;
    private final int distinct;

    static final int STRIDE = 3 + KEPT;

    private ObservedCapacity(double[] packed, int from, int distinct) {
        this.packed = packed;
        this.from = from;
        this.distinct = distinct;
    }

    /**
     * From per-parallelism fields, as {@link CapacitySamples} holds them, written into {@code
     * packed} from {@code from}, which must have room for {@code distinct} × {@value #STRIDE}
     * values.
     */
    static ObservedCapacity write(
            int distinct,
            int[] parallelisms,
            int[] counts,
            double[][] sorted,
            long[] latest,
            double[] packed,
            int from) {
        for (int i = 0; i < distinct; i++) {
            int at = from + i * STRIDE;
            packed[at] = parallelisms[i];
            packed[at + 1] = counts[i];
            packed[at + 2] = latest[i];
            middle(sorted[i], counts[i], packed, at + 3);
        }
        return new ObservedCapacity(packed, from, distinct);
    }

    /** The values of {@code sorted}'s first {@code n} around their middle rank, into {@code to}. */
    private static void middle(double[] sorted, int n, double[] to, int from) {
        int first = n / 2 - BELOW;
        for (int k = 0; k < KEPT; k++) {
            int rank = first + k;
            to[from + k] =
                    rank < 0
                            ? Double.NEGATIVE_INFINITY
                            : rank >= n ? Double.POSITIVE_INFINITY : sorted[rank];
        }
    }

    private int distinct() {
        return distinct;
    }

    private int parallelism(int i) {
        return (int) packed[from + i * STRIDE];
    }

    private int count(int i) {
        return (int) packed[from + i * STRIDE + 1];
    }

    private double latest(int i) {
        return packed[from + i * STRIDE + 2];
    }

    private int indexOf(int p) {
        for (int i = 0; i < distinct(); i++) {
            if (parallelism(i) == p) {
                return i;
            }
        }
        return -1;
    }

    /** Distinct parallelisms held, counting {@code p} too. */
    public int distinctWith(int p) {
        return distinct() + (indexOf(p) < 0 ? 1 : 0);
    }

    /**
     * Per parallelism, ascending, the median (the mean of the middle two of an even count) of the
     * values held plus {@code capacity} at {@code p}: the points a capacity curve is fitted to.
     */
    public TreeMap<Integer, Double> medians(int p, double capacity) {
        int[] at = new int[distinctWith(p)];
        double[] values = new double[at.length];
        medians(p, capacity, at, values);
        TreeMap<Integer, Double> points = new TreeMap<>();
        for (int i = 0; i < at.length; i++) {
            points.put(at[i], values[i]);
        }
        return points;
    }

    /**
     * The points of {@link #medians(int, double)} written into arrays of at least {@link
     * #distinctWith(int)} elements, ascending by parallelism: a decision reads them for every
     * operator, so into arrays it reuses rather than a new map each.
     *
     * @return how many points were written
     */
    public int medians(int p, double capacity, int[] at, double[] values) {
        int n = 0;
        for (int i = 0; i < distinct(); i++) {
            n = insert(at, values, n, parallelism(i), median(i, p, capacity));
        }
        return indexOf(p) < 0 ? insert(at, values, n, p, capacity) : n;
    }

    /**
     * The median at parallelism {@code i}'s values, with {@code capacity} if it is at {@code p}.
     */
    private double median(int i, int p, double capacity) {
        Rank r = new Rank(this, i, parallelism(i) == p, capacity);
        int n = r.size();
        // the interpolation of the median by rank (n + 1) / 2, as Commons Math computes it
        double pos = 0.5 * (n + 1);
        double fpos = Math.floor(pos);
        int intPos = (int) fpos;
        double lower = pos >= n ? r.at(n - 1) : r.at(intPos - 1);
        return pos >= n ? lower : lower + (pos - fpos) * (r.at(intPos) - lower);
    }

    /** Inserts a point into the first {@code n}, kept ascending by parallelism; the new count. */
    private static int insert(int[] at, double[] values, int n, int p, double value) {
        int k = n;
        for (; k > 0 && at[k - 1] > p; k--) {
            at[k] = at[k - 1];
            values[k] = values[k - 1];
        }
        at[k] = p;
        values[k] = value;
        return n + 1;
    }

    /**
     * The upper median (the higher middle value) at {@code q}, with {@code capacity} at {@code p}.
     */
    public double upperMedian(int q, int p, double capacity) {
        int i = indexOf(q);
        if (i < 0) {
            return capacity;
        }
        Rank r = new Rank(this, i, q == p, capacity);
        return r.at(r.size() / 2);
    }

    /**
     * The parallelism of the latest value held at a parallelism other than {@code p}: where the
     * operator ran before it came to {@code p}; empty when it ran at no other.
     */
    public OptionalInt before(int p) {
        int best = -1;
        for (int i = 0; i < distinct(); i++) {
            if (parallelism(i) != p && (best < 0 || latest(i) > latest(best))) {
                best = i;
            }
        }
        return best < 0 ? OptionalInt.empty() : OptionalInt.of(parallelism(best));
    }

    /** Values held in all. */
    public int size() {
        int n = 0;
        for (int i = 0; i < distinct(); i++) {
            n += count(i);
        }
        return n;
    }

    /** The value at {@code rank} of parallelism {@code i}'s values: ±∞ beyond them. */
    private double value(int i, int rank) {
        if (rank < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        int n = count(i);
        if (rank >= n) {
            return Double.POSITIVE_INFINITY;
        }
        return packed[from + i * STRIDE + 3 + rank - (n / 2 - BELOW)];
    }

    /**
     * One parallelism's values with, optionally, one more inserted, read by rank near the middle:
     * the k-th of the merged values is the k-th held one, the inserted one, or the (k−1)-th.
     */
    private record Rank(ObservedCapacity c, int i, boolean inserted, double extra) {

        int size() {
            return c.count(i) + (inserted ? 1 : 0);
        }

        double at(int rank) {
            if (!inserted) {
                return c.value(i, rank);
            }
            return Math.min(Math.max(c.value(i, rank - 1), extra), c.value(i, rank));
        }
    }
}
