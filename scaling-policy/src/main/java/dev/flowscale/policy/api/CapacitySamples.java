package dev.flowscale.policy.api;

import java.util.Arrays;

/**
 * The capacities one operator's recent decisions recorded, sorted per parallelism in arrays that
 * are changed in place: adding or dropping a decision's value moves at most the values held at one
 * parallelism and allocates nothing once the arrays have grown. What the policy reads is taken from
 * it as an {@link ObservedCapacity}. Not thread-safe; owned by a {@link HistoryIndex.Builder}.
 */
final class CapacitySamples {

    private int distinct;
    private int[] parallelisms = new int[2];
    private double[][] sorted = new double[2][];
    private int[] counts = new int[2];
    private long[] latest = new long[2]; // sequence number of the latest value at each parallelism

    /** Adds {@code capacity} recorded at parallelism {@code p} by decision {@code seq}. */
    void add(int p, double capacity, long seq) {
        int i = indexOf(p);
        if (i < 0) {
            i = append(p);
        }
        double[] values = sorted[i];
        int n = counts[i];
        if (n == values.length) {
            values = Arrays.copyOf(values, 2 * n);
            sorted[i] = values;
        }
        int at = Arrays.binarySearch(values, 0, n, capacity);
        at = at < 0 ? -at - 1 : at;
        System.arraycopy(values, at, values, at + 1, n - at);
        values[at] = capacity;
        counts[i] = n + 1;
        latest[i] = Math.max(latest[i], seq);
    }

    /** Drops one value {@code capacity} at parallelism {@code p} (it must be held). */
    void remove(int p, double capacity) {
        int i = indexOf(p);
        int n = counts[i];
        if (n == 1) {
            int tail = distinct - i - 1;
            System.arraycopy(parallelisms, i + 1, parallelisms, i, tail);
            System.arraycopy(sorted, i + 1, sorted, i, tail);
            System.arraycopy(counts, i + 1, counts, i, tail);
            System.arraycopy(latest, i + 1, latest, i, tail);
            sorted[--distinct] = null;
            return;
        }
        double[] values = sorted[i];
        int at = Arrays.binarySearch(values, 0, n, capacity);
        System.arraycopy(values, at + 1, values, at, n - at - 1);
        counts[i] = n - 1;
    }

    boolean isEmpty() {
        return distinct == 0;
    }

    /**
     * What the policy reads: per parallelism, the count and the values around the middle, written
     * into {@code packed} from {@code from} (a {@link HistoryIndex} packs every operator's into one
     * array).
     */
    ObservedCapacity observed(double[] packed, int from) {
        return ObservedCapacity.write(distinct, parallelisms, counts, sorted, latest, packed, from);
    }

    /** How many values {@link #observed(double[], int)} writes. */
    int packedSize() {
        return distinct * ObservedCapacity.STRIDE;
    }

    private int append(int p) {
        if (distinct == parallelisms.length) {
            int size = 2 * distinct;
            parallelisms = Arrays.copyOf(parallelisms, size);
            sorted = Arrays.copyOf(sorted, size);
            counts = Arrays.copyOf(counts, size);
            latest = Arrays.copyOf(latest, size);
        }
        parallelisms[distinct] = p;
        sorted[distinct] = new double[4];
        counts[distinct] = 0;
        latest[distinct] = Long.MIN_VALUE;
        return distinct++;
    }

    private int indexOf(int p) {
        for (int i = 0; i < distinct; i++) {
            if (parallelisms[i] == p) {
                return i;
            }
        }
        return -1;
    }
}
