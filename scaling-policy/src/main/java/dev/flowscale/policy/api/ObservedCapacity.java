package dev.flowscale.policy.api;

import java.util.Arrays;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The capacities one operator's recent decisions recorded (capacity per instance × parallelism),
 * grouped by parallelism and kept sorted, so medians and the parallelism before the latest change
 * are read without scanning the decisions. Immutable: {@link #plus} and {@link #minus} return a
 * copy that shares every parallelism's values but the one changed. At most one value per decision
 * is held, so its size is bounded by the decisions a {@link HistoryIndex} observes.
 */
public final class ObservedCapacity {

    static final ObservedCapacity NONE =
            new ObservedCapacity(new int[0], new double[0][], new long[0]);

    private final int[] parallelisms;
    private final double[][] sorted;
    private final long[] latest; // sequence number of the latest value at each parallelism

    private ObservedCapacity(int[] parallelisms, double[][] sorted, long[] latest) {
        this.parallelisms = parallelisms;
        this.sorted = sorted;
        this.latest = latest;
    }

    /** This plus {@code capacity} recorded at parallelism {@code p} by decision {@code seq}. */
    ObservedCapacity plus(int p, double capacity, long seq) {
        int i = indexOf(p);
        if (i < 0) {
            int n = parallelisms.length;
            ObservedCapacity c =
                    new ObservedCapacity(
                            Arrays.copyOf(parallelisms, n + 1),
                            Arrays.copyOf(sorted, n + 1),
                            Arrays.copyOf(latest, n + 1));
            c.parallelisms[n] = p;
            c.sorted[n] = new double[] {capacity};
            c.latest[n] = seq;
            return c;
        }
        double[] old = sorted[i];
        int at = Arrays.binarySearch(old, capacity);
        at = at < 0 ? -at - 1 : at;
        double[] values = new double[old.length + 1];
        System.arraycopy(old, 0, values, 0, at);
        values[at] = capacity;
        System.arraycopy(old, at, values, at + 1, old.length - at);
        ObservedCapacity c = replaced(i, values);
        c.latest[i] = Math.max(latest[i], seq);
        return c;
    }

    /** This without one value {@code capacity} at parallelism {@code p} (it must be held). */
    ObservedCapacity minus(int p, double capacity) {
        int i = indexOf(p);
        double[] old = sorted[i];
        if (old.length == 1) {
            int n = parallelisms.length - 1;
            int[] ps = new int[n];
            double[][] vs = new double[n][];
            long[] ls = new long[n];
            for (int j = 0, k = 0; j <= n; j++) {
                if (j != i) {
                    ps[k] = parallelisms[j];
                    vs[k] = sorted[j];
                    ls[k++] = latest[j];
                }
            }
            return new ObservedCapacity(ps, vs, ls);
        }
        int at = Arrays.binarySearch(old, capacity);
        double[] values = new double[old.length - 1];
        System.arraycopy(old, 0, values, 0, at);
        System.arraycopy(old, at + 1, values, at, old.length - at - 1);
        return replaced(i, values);
    }

    private ObservedCapacity replaced(int i, double[] values) {
        double[][] vs = sorted.clone();
        vs[i] = values;
        return new ObservedCapacity(parallelisms, vs, latest.clone());
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
            Rank r = new Rank(sorted[i], parallelisms[i] == p, capacity);
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
        Rank r = new Rank(sorted[i], q == p, capacity);
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
        for (double[] values : sorted) {
            n += values.length;
        }
        return n;
    }

    /** A sorted array with, optionally, one more value inserted, read by rank without copying. */
    private record Rank(double[] values, boolean inserted, double extra, int at) {

        Rank(double[] values, boolean inserted, double extra) {
            this(values, inserted, extra, insertionPoint(values, inserted, extra));
        }

        private static int insertionPoint(double[] values, boolean inserted, double extra) {
            if (!inserted) {
                return values.length;
            }
            int i = Arrays.binarySearch(values, extra);
            return i < 0 ? -i - 1 : i;
        }

        int size() {
            return values.length + (inserted ? 1 : 0);
        }

        double at(int rank) {
            if (!inserted || rank < at) {
                return values[rank];
            }
            return rank == at ? extra : values[rank - 1];
        }
    }
}
