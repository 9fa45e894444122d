package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import java.util.Arrays;

/**
 * Splits a chain's useful time between its operators without a clock read per record. The chain's
 * thread measures its useful time as an unchained task does (by phase changes); what each operator
 * gets of it is its share, estimated from samples:
 *
 * <ul>
 *   <li>one data batch in {@value #SAMPLE_EVERY} is timed per operator: the clock is read when a
 *       record enters a chained operator and when the call returns, so every nanosecond of the
 *       batch goes to exactly the operator that ran it (exclusive time), less the calibrated cost
 *       of the clock read itself;
 *   <li>control events that can cause work (barriers, watermarks) are timed the same way every
 *       time, since they are few and their work (a window firing) is not like a batch's.
 * </ul>
 *
 * Batch samples are scaled to all batches ({@value #SAMPLE_EVERY} per sampled one; a source's poll
 * that found nothing is a batch too, and its time the source's), events added as they are, and each
 * operator's share is its part of that sum. The sums decay by half at every update, so the shares
 * follow a change in the operators' costs within a few updates.
 */
final class ChainTiming {
    /** One data batch in this many is timed; a power of two. */
    static final int SAMPLE_EVERY = 64;

    /** Samples between two updates of the shares. */
    private static final int UPDATE_AFTER = 8;

    /** What one {@link System#nanoTime} call adds to an interval measured between two of them. */
    static final long READ_NANOS = calibrate();

    private final boolean instrumented;
    private InstanceCounterRecorder[] recorders = new InstanceCounterRecorder[0];
    private long[] batchNanos = new long[0];
    private long[] eventNanos = new long[0];
    private boolean enabled;

    /** Whether the work under way is being timed; read by every chained call. */
    boolean active;

    private long[] charging;
    private int current;
    private long last;
    private long batches;
    private long sampledBatches;
    private int samples;

    ChainTiming(boolean instrumented) {
        this.instrumented = instrumented;
    }

    /**
     * Adds an operator of the chain (the head first); returns its index. Before the thread runs.
     */
    int add(InstanceCounterRecorder recorder) {
        int index = recorders.length;
        recorders = Arrays.copyOf(recorders, index + 1);
        recorders[index] = recorder;
        batchNanos = new long[index + 1];
        eventNanos = new long[index + 1];
        enabled = instrumented && recorders.length > 1;
        // Until the first samples, an equal split.
        for (InstanceCounterRecorder r : recorders) {
            r.usefulShare(1.0 / recorders.length, 0);
        }
        return index;
    }

    /** A data batch starts at the head: every {@value #SAMPLE_EVERY}th is timed. */
    void beginBatch() {
        if (enabled && (++batches & (SAMPLE_EVERY - 1)) == 0) {
            start(batchNanos);
        }
    }

    /** The batch has been handled by the whole chain. */
    void endBatch() {
        if (active && charging == batchNanos) {
            sampledBatches++;
            stop();
        }
    }

    /** A control event starts at the head; returns whether this call started timing it. */
    boolean beginEvent() {
        if (!enabled || active) {
            return false;
        }
        start(eventNanos);
        return true;
    }

    void endEvent(boolean started) {
        if (started) {
            stop();
        }
    }

    /** Work passes to chained operator {@code index}; returns the operator it came from. */
    int enter(int index) {
        long now = System.nanoTime();
        charging[current] += now - last - READ_NANOS;
        int from = current;
        current = index;
        last = now;
        return from;
    }

    /** The chained call returned to operator {@code from}. */
    void exit(int from) {
        long now = System.nanoTime();
        charging[current] += now - last - READ_NANOS;
        current = from;
        last = now;
    }

    private void start(long[] into) {
        charging = into;
        current = 0;
        active = true;
        last = System.nanoTime();
    }

    private void stop() {
        long now = System.nanoTime();
        charging[current] += now - last - READ_NANOS;
        active = false;
        if (++samples >= UPDATE_AFTER) {
            update(now);
        }
    }

    /** Publishes the shares estimated from the samples, then halves the sums. */
    private void update(long now) {
        double scale = sampledBatches == 0 ? 0 : (double) SAMPLE_EVERY;
        double[] estimate = new double[recorders.length];
        double total = 0;
        for (int i = 0; i < estimate.length; i++) {
            estimate[i] = Math.max(0, batchNanos[i] * scale + eventNanos[i]);
            total += estimate[i];
        }
        if (total <= 0) {
            return;
        }
        for (int i = 0; i < estimate.length; i++) {
            recorders[i].usefulShare(estimate[i] / total, now);
            batchNanos[i] /= 2;
            eventNanos[i] /= 2;
        }
        sampledBatches = 0;
        samples = 0;
    }

    /** The least time two back-to-back clock reads take apart, over a few tries. */
    private static long calibrate() {
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 20; round++) {
            long start = System.nanoTime();
            long end = start;
            for (int i = 0; i < 1_000; i++) {
                end = System.nanoTime();
            }
            best = Math.min(best, (end - start) / 1_000);
        }
        return best;
    }
}
