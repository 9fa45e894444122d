package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import java.util.Arrays;

/**
 * Splits a chain's useful time between its operators without a clock read per record. The chain's
 * thread measures its useful time as an unchained task does (by phase changes); what each operator
 * gets of it is its share, estimated from samples:
 *
 * <ul>
 *   <li>a data batch is timed per operator when the sampling budget allows: the clock is read when
 *       a record enters a chained operator and when the call returns, so every nanosecond of the
 *       batch goes to exactly the operator that ran it (exclusive time), less the calibrated cost
 *       of the clock read itself. A sample's clock reads cost about {@link #READ_NANOS} each (50-75
 *       ns on a virtual machine's clock), so the next batch is timed only once the thread has run
 *       {@code 1 / }{@value #BUDGET} times as long as that sample's reads took: timing costs the
 *       chain at most that share of its time, whatever its records cost;
 *   <li>control events that can cause work (barriers, watermarks) are timed the same way every
 *       time, since they are few and their work (a window firing) is not like a batch's;
 *   <li>the thread's time off its core inside a batch's sample is found from its CPU time, read
 *       every few records, and taken off the operator it fell in, less what the thread's run delay
 *       says was a blocking call rather than a wait for a core ({@link OffCoreWindows}): on a
 *       loaded machine such a wait (milliseconds) went to whichever operator ran at the time and
 *       outweighed many samples of real work. An event's wait for a core (its run delay, {@link
 *       SampleRunDelay}) is taken off its longest stretch. Reading either costs the sample too,
 *       within the budget.
 * </ul>
 *
 * A batch sample stands for the batches since the previous one (it is weighted by their number; a
 * source's poll that found nothing is no batch, see {@link #skipBatch}); a slow batch is timed in
 * slices ({@link #SLICE_NANOS}), each standing for the same batches; events count as they are, and
 * each operator's share is its part of that sum. The sums decay by half at every update, so the
 * shares follow a change in the operators' costs within a few updates.
 */
final class ChainTiming implements AutoCloseable {
    /** The share of the chain's time that timing samples may cost. */
    static final double BUDGET = 0.002;

    /** Samples between two updates of the shares... */
    private static final int UPDATE_AFTER = 8;

    /** ...or less when that takes longer (a slow chain's batches): at most this long. */
    private static final long UPDATE_INTERVAL_NANOS = 50_000_000L;

    /**
     * A sample of a batch that has run this long ends at the next record's return to the head, and
     * the next sample starts there: a slow chain's batch (seconds of records of milliseconds,
     * longer while blocked downstream) then gives shares within its first records, not at its end.
     */
    static final long SLICE_NANOS = 5_000_000L;

    /** What one {@link System#nanoTime} call adds to an interval measured between two of them. */
    static final long READ_NANOS = calibrate();

    private final SampleRunDelay runDelay = new SampleRunDelay();
    private final OffCoreWindows windows =
            new OffCoreWindows(OwnCpuTime::nanos, OwnCpuTime.READ_NANOS);
    private final boolean instrumented;
    private InstanceCounterRecorder[] recorders = new InstanceCounterRecorder[0];
    private long[] sample = new long[0];
    private double[] spent = new double[0];
    private boolean enabled;

    /** Whether the work under way is being timed; read by every chained call. */
    boolean active;

    private boolean event;

    /** Whether the sample under way has stopped counting ({@link #suspend}). */
    private boolean suspended;

    private int current;
    private long last;
    private int sinceSample;

    /** The batches the sample under way stands for (each slice of a batch stands for them all). */
    private int weight;

    /** When the sample under way began. */
    private long startedAt;

    /** The sample's longest stretch of one operator's work, and whose it was. */
    private long longest;

    private int longestAt;

    /** Clock reads of the sample under way. */
    private long reads;

    /** When the next batch may be timed (a System.nanoTime value). */
    private long nextSampleAt;

    private boolean due;
    private int samples;
    private long updatedAt;

    ChainTiming(boolean instrumented) {
        this.instrumented = instrumented;
        this.nextSampleAt = System.nanoTime();
    }

    /**
     * Adds an operator of the chain (the head first); returns its index. Before the thread runs.
     */
    int add(InstanceCounterRecorder recorder) {
        int index = recorders.length;
        recorders = Arrays.copyOf(recorders, index + 1);
        recorders[index] = recorder;
        sample = new long[index + 1];
        spent = new double[index + 1];
        enabled = instrumented && recorders.length > 1;
        // Until the first samples, an equal split.
        for (InstanceCounterRecorder r : recorders) {
            r.usefulShare(1.0 / recorders.length, 0);
        }
        return index;
    }

    /** The head read the clock after a batch: the next batch is timed if the budget allows. */
    void tick(long now) {
        if (enabled && now - nextSampleAt >= 0) {
            due = true;
        }
    }

    /** A data batch starts at the head. */
    void beginBatch() {
        sinceSample++;
        if (due && !active) {
            weight = sinceSample;
            start(false);
        }
    }

    /** The batch has been handled by the whole chain. */
    void endBatch() {
        if (active && !event) {
            long cost =
                    reads * Math.max(1, READ_NANOS) + runDelay.costNanos() + windows.costNanos();
            stop(weight);
            sinceSample = 0;
            due = false;
            nextSampleAt = last + (long) (cost / BUDGET);
        }
    }

    /**
     * The batch found nothing to do (a source's poll that came back empty, which is not useful
     * time): it is neither a sample nor one of the batches a sample stands for, and the next batch
     * is timed in its place. A throttled source polls empty between due records; counted, those
     * polls gave the source a share of the chain's time it did not spend.
     */
    void skipBatch() {
        sinceSample--;
        if (active && !event) {
            Arrays.fill(sample, 0);
            active = false;
        }
    }

    /** A control event starts at the head; returns whether this call started timing it. */
    boolean beginEvent() {
        if (!enabled || active) {
            return false;
        }
        start(true);
        return true;
    }

    void endEvent(boolean started) {
        if (started) {
            stop(1);
        }
    }

    /** Work passes to chained operator {@code index}; returns the operator it came from. */
    int enter(int index) {
        reads++;
        long now = System.nanoTime();
        charge(now - last - READ_NANOS);
        int from = current;
        current = index;
        last = now;
        return from;
    }

    /** The chained call returned to operator {@code from}. */
    void exit(int from) {
        reads++;
        long now = System.nanoTime();
        charge(now - last - READ_NANOS);
        current = from;
        last = now;
        if (from == 0 && windows.full()) {
            windows.close(sample);
            reads++;
            last = System.nanoTime();
            if (!event && !suspended && last - startedAt >= SLICE_NANOS) {
                stop(weight);
                start(false);
            }
        }
    }

    /**
     * The thread stops doing useful work at {@code now} (blocked on output, or waiting): the wait
     * is no operator's work, so the sample under way stops counting until {@link #resume}.
     */
    void suspend(long now) {
        if (active && !suspended) {
            charge(now - last);
            last = now;
            suspended = true;
            runDelay.pause();
        }
    }

    /**
     * The thread does useful work again from {@code now} on. A source's poll that ends a wait for
     * input is booked useful from its start, after it returned: the sample has counted that time
     * already, so it is never counted again.
     */
    void resume(long now) {
        if (active) {
            last = Math.max(last, now);
            if (suspended) {
                suspended = false;
                runDelay.unpause();
            }
        }
    }

    @Override
    public void close() {
        runDelay.close();
    }

    /** Adds a stretch of the current operator's work to the sample. */
    private void charge(long nanos) {
        sample[current] += nanos;
        windows.add(current, nanos);
        if (nanos > longest) {
            longest = nanos;
            longestAt = current;
        }
    }

    private void start(boolean isEvent) {
        event = isEvent;
        current = 0;
        active = true;
        suspended = false;
        reads = 2;
        longest = 0;
        runDelay.begin();
        windows.begin(sample.length, !isEvent);
        last = System.nanoTime();
        startedAt = last;
    }

    /** Ends the sample; it stands for {@code weight} batches (or one event). */
    private void stop(int weight) {
        long now = System.nanoTime();
        charge(now - last - READ_NANOS);
        last = now;
        active = false;
        windows.close(sample);
        long waited = runDelay.waited();
        if (event) {
            // Few and timed whole: a wait for a core falls in one stretch, the longest.
            sample[longestAt] -= waited == OwnRunDelay.UNKNOWN ? 0 : Math.min(waited, longest);
        } else {
            windows.finish(sample, waited);
        }
        for (int i = 0; i < sample.length; i++) {
            spent[i] += (double) weight * Math.max(0, sample[i]);
            sample[i] = 0;
        }
        if (++samples >= UPDATE_AFTER || now - updatedAt >= UPDATE_INTERVAL_NANOS) {
            update(now);
        }
    }

    /** Publishes the shares estimated from the samples, then halves the sums. */
    private void update(long now) {
        double total = 0;
        for (double s : spent) {
            total += s;
        }
        if (total <= 0) {
            return;
        }
        for (int i = 0; i < spent.length; i++) {
            recorders[i].usefulShare(spent[i] / total, now);
            spent[i] /= 2;
        }
        samples = 0;
        updatedAt = now;
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
