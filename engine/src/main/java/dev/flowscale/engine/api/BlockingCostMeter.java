package dev.flowscale.engine.api;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Parks to a virtual deadline rather than for a fixed time: parkNanos overshoots, and carrying the
 * deadline over makes the overshoot of one record shorten the next wait, so the rate under load is
 * 1/perRecord. After idling the deadline restarts from now, so no credit builds up.
 *
 * <p>The time the thread waited for a core (its run delay, where known) is not caught up: it moves
 * the deadline on. A thread that called a remote service waits for the reply, then for a core, and
 * its wall-clock useful time holds both; the policy's core-wait correction takes the second off
 * again. Caught up, the wait would vanish from the useful time yet still be counted as a wait, and
 * the corrected capacity would exceed 1/perRecord.
 */
final class BlockingCostMeter implements SyntheticCost.CostMeter {
    private final long nanosPerRecord;
    private final boolean sharedThread;
    private final LongSupplier runDelay;
    private long next;
    private long doneAt;
    private boolean idle = true;

    /** The run delay read when the previous charge ended, negative where not known. */
    private long delayAtDone = -1;

    /** Running estimate of how late parkNanos wakes up; parking that much earlier lands on time. */
    private long lateness;

    BlockingCostMeter(long nanosPerRecord, boolean sharedThread, LongSupplier runDelay) {
        this.nanosPerRecord = nanosPerRecord;
        this.sharedThread = sharedThread;
        this.runDelay = runDelay;
    }

    /**
     * Within a busy period the deadline only moves forward by the cost and the core waits, so a
     * late wake-up (parkNanos overshoot) shortens the next waits.
     */
    @Override
    public void charge(int records) {
        long now = System.nanoTime();
        long delayAtStart = runDelay.getAsLong();
        next = base(now, delayAtStart) + nanosPerRecord * Math.max(0, records);
        idle = false;
        boolean parked = park();
        now = System.nanoTime();
        long delayAtEnd = runDelay.getAsLong();
        next += waited(delayAtStart, delayAtEnd);
        if (parked) {
            lateness = Math.max(0, Math.min(nanosPerRecord / 2, lateness + (now - next) / 8));
        }
        doneAt = now;
        delayAtDone = delayAtEnd;
    }

    /**
     * Where this record's deadline starts. On a shared thread, time between two charges went to
     * other operators (their core waits included): it moves the deadline on, so only this meter's
     * own late wake-ups are caught up. Alone on its thread, a core wait since the last charge moves
     * it on.
     */
    private long base(long now, long delayAtStart) {
        if (idle) {
            return now;
        }
        return sharedThread
                ? next + Math.max(0, now - doneAt)
                : next + waited(delayAtDone, delayAtStart);
    }

    /** Parks until the deadline less the learnt lateness; whether it parked at all. */
    private boolean park() {
        long wakeAt = next - lateness;
        boolean parked = false;
        long now;
        // An interrupt means the task is being cancelled: stop waiting, keep the flag set.
        while ((now = System.nanoTime()) - wakeAt < 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(wakeAt - now);
            parked = true;
        }
        return parked;
    }

    private static long waited(long from, long to) {
        return from < 0 || to < 0 ? 0 : Math.max(0, to - from);
    }

    @Override
    public void idle() {
        idle = true;
    }
}
