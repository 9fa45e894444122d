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

    static final ObservedCapacity NONE =
            new ObservedCapacity(new int[0], new int[0], new double[0][], new long[0]);

    /** Ranks kept per parallelism: from one below the middle rank ⌊n/2⌋ to one above it. */
    private static final int BELOW = 1;

    private static final int KEPT = 3;

    private final int[] parallelisms;
    private final int[] counts;
    private final double[][] middles; // ranks ⌊n/2⌋ − 1 .. ⌊n/2⌋ + 1, ±∞ beyond the values
    private final long[] latest; // sequence number of the latest value at each parallelism

    ObservedCapacity(int[] parallelisms, int[] counts, double[][] middles, long[] latest) {
        this.parallelisms = parallelisms;
        this.counts = counts;
        this.middles = middles;
        this.latest = latest;
    }

    /** The values of {@code sorted}'s first {@code n} around their middle rank, as kept. */
    static double[] middle(double[] sorted, int n) {
        double[] kept = new double[KEPT];
        int first = n / 2 - BELOW;
        for (int k = 0; k < KEPT; k++) {
            int rank = first + k;
            kept[k] =
                    rank < 0
                            ? Double.NEGATIVE_INFINITY
                            : rank >= n ? Double.POSITIVE_INFINITY : sorted[rank];
        }
        return kept;
    }

    private int indexOf(int p) {
        for (int i = 0; i < parallelisms.length; i++) {
            if (parallelisms[i] == p) {
                return i;
            }
        }
        return -1;
    }

    /** Distinct parallelisms held, counting {@code p} too. */
    public int distinctWith(int p) {
        return parallelisms.length + (indexOf(p) < 0 ? 1 : 0);
    }

    /**
     * Per parallelism, ascending, the median (the mean of the middle two of an even count) of the
     * values held plus {@code capacity} at {@code p}: the points a capacity curve is fitted to.
     */
    public TreeMap<Integer, Double> medians(int p, double capacity) {
        TreeMap<Integer, Double> points = new TreeMap<>();
        for (int i = 0; i < parallelisms.length; i++) {
            Rank r = new Rank(this, i, parallelisms[i] == p, capacity);
            int n = r.size();
            // the interpolation of the median by rank (n + 1) / 2, as Commons Math computes it
            double pos = 0.5 * (n + 1);
            double fpos = Math.floor(pos);
            int intPos = (int) fpos;
            double lower = pos >= n ? r.at(n - 1) : r.at(intPos - 1);
            points.put(
                    parallelisms[i],
                    pos >= n ? lower : lower + (pos - fpos) * (r.at(intPos) - lower));
        }
        if (indexOf(p) < 0) {
            points.put(p, capacity);
        }
        return points;
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
        for (int i = 0; i < parallelisms.length; i++) {
            if (parallelisms[i] != p && (best < 0 || latest[i] > latest[best])) {
                best = i;
            }
        }
        return best < 0 ? OptionalInt.empty() : OptionalInt.of(parallelisms[best]);
    }

    /** Values held in all. */
    public int size() {
        int n = 0;
        for (int count : counts) {
            n += count;
        }
        return n;
    }

    /** The value at {@code rank} of parallelism {@code i}'s values: ±∞ beyond them. */
    private double value(int i, int rank) {
        if (rank < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (rank >= counts[i]) {
            return Double.POSITIVE_INFINITY;
        }
        return middles[i][rank - (counts[i] / 2 - BELOW)];
    }

    /**
     * One parallelism's values with, optionally, one more inserted, read by rank near the middle:
     * the k-th of the merged values is the k-th held one, the inserted one, or the (k−1)-th.
     */
    private record Rank(ObservedCapacity c, int i, boolean inserted, double extra) {

        int size() {
            return c.counts[i] + (inserted ? 1 : 0);
        }

        double at(int rank) {
            if (!inserted) {
                return c.value(i, rank);
            }
            return Math.min(Math.max(c.value(i, rank - 1), extra), c.value(i, rank));
        }
    }
}
