package dev.flowscale.engine.metrics;

/**
 * Records per key group of one keyed operator instance, over the key groups it owns. Only the
 * instance's task thread calls {@link #count}, once per record: a plain increment into the batch
 * under way, remembering each key group the batch touched. {@link
 * InstanceCounterRecorder#addRecords} adds the batch to the published totals inside its
 * single-writer write, so the cost at the batch's end is one addition per key group the batch
 * touched, not one per key group owned.
 */
public final class KeyGroupCounter {
    private final long[] batch;

    /** Indexes (into {@link #batch}) whose count is not zero, in the order first touched. */
    private final int[] touched;

    private int touchedCount;

    KeyGroupCounter(int keyGroups) {
        this.batch = new long[keyGroups];
        this.touched = new int[keyGroups];
    }

    /**
     * Counts one record of the key group at {@code index} of the instance's range (key group minus
     * the range's first).
     */
    public void count(int index) {
        if (batch[index]++ == 0) {
            touched[touchedCount++] = index;
        }
    }

    /** Adds the batch's counts to {@code totals} and starts a new batch; task thread only. */
    void drainInto(long[] totals) {
        for (int i = 0; i < touchedCount; i++) {
            int index = touched[i];
            totals[index] += batch[index];
            batch[index] = 0;
        }
        touchedCount = 0;
    }
}
