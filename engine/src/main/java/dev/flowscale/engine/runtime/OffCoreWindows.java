package dev.flowscale.engine.runtime;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Takes the thread's time off its core out of a chain sample's stretches of operator work. The
 * sample's wall-clock stretches (a clock read of tens of nanoseconds) are exact while the thread
 * runs; a preemption (milliseconds on a loaded machine) would go whole to the operator running at
 * the time and outweigh many samples of real work. So the thread's CPU time is read after every
 * {@value #WINDOW_NANOS} ns of the sample's work (at a record's return to the head: one read per
 * record for slow records, one per many for cheap ones), and a window whose wall-clock time exceeds
 * its CPU time by more than {@value #OFF_CORE_NANOS} ns has that difference taken off its longest
 * stretch, the one the thread was off its core in (a wait that long is longer than any stretch of a
 * window that short). A read is a system call, and the work right after one runs slower (its caches
 * and predictors disturbed), a cost that falls in the stretch after the read: checked before every
 * operator's stretch, the light operators of a 1 : 8 : 1 chain of tens of microseconds a record
 * took 12 % more CPU time chained than alone. Checked at the head only, that cost goes to the
 * head's own short stretch, and windows of {@value #WINDOW_NANOS} ns keep it rare in a chain of
 * cheap records.
 *
 * <p>Off the core is either waiting for a core or blocked inside an operator's call (a parked
 * remote call, which is that operator's useful time). At the sample's end, what was taken off
 * beyond the thread's wait for a core in the sample (its run delay) is given back, to each operator
 * in proportion to what was taken from it. Where the run delay is not known, everything is given
 * back (wall-clock shares); where the CPU time is not known, nothing is taken. Used on the chain's
 * thread only.
 */
final class OffCoreWindows {
    /** Wall-clock time of sampled work between two reads of the thread's CPU time. */
    static final long WINDOW_NANOS = 100_000L;

    /** Off-core time of a window below this is left in it: clock jitter, an interrupt. */
    static final long OFF_CORE_NANOS = 5_000L;

    private final LongSupplier cpuClock;
    private final long cpuReadNanos;
    private long[] taken = new long[0];
    private long takenTotal;
    private boolean on;
    private long cpuAtStart;
    private long wall;
    private long longest;
    private int longestAt;
    private int cpuReads;

    /** The calling thread's CPU time and what one read of it costs ({@link OwnCpuTime}). */
    OffCoreWindows(LongSupplier cpuClock, long cpuReadNanos) {
        this.cpuClock = cpuClock;
        this.cpuReadNanos = cpuReadNanos;
    }

    /** A sample starts; {@code check}: whether to look for time off the core in it at all. */
    void begin(int operators, boolean check) {
        if (taken.length != operators) {
            taken = new long[operators];
        } else {
            Arrays.fill(taken, 0);
        }
        takenTotal = 0;
        cpuReads = 0;
        on = check;
        if (on) {
            openWindow();
        }
    }

    /** A stretch of {@code nanos} of operator {@code op}'s work was added to the sample. */
    void add(int op, long nanos) {
        wall += nanos;
        if (nanos > longest) {
            longest = nanos;
            longestAt = op;
        }
    }

    /** Whether the window has held enough work to be checked (at a return to the head). */
    boolean full() {
        return on && wall >= WINDOW_NANOS;
    }

    /**
     * Compares the window's wall-clock time with the thread's CPU time over it, takes the time off
     * the core out of {@code sample}, and opens the next window. The caller reads the wall clock
     * again afterwards: the CPU read is no operator's work.
     */
    void close(long[] sample) {
        if (!on) {
            return;
        }
        long cpuBefore = cpuAtStart;
        long windowWall = wall;
        long windowLongest = longest;
        int at = longestAt;
        openWindow();
        if (cpuBefore == OwnCpuTime.UNKNOWN || cpuAtStart == OwnCpuTime.UNKNOWN) {
            return;
        }
        // The CPU time since the window opened also holds one read of it, which its wall-clock
        // stretches left out.
        long off = windowWall + cpuReadNanos - (cpuAtStart - cpuBefore);
        if (off > OFF_CORE_NANOS) {
            long take = Math.min(off, windowLongest);
            sample[at] -= take;
            taken[at] += take;
            takenTotal += take;
        }
    }

    /**
     * The sample has ended (its last window closed), the thread having waited {@code coreWait} ns
     * for a core in it ({@link OwnRunDelay#UNKNOWN}: not known): gives back to {@code sample} what
     * was taken beyond that wait.
     */
    void finish(long[] sample, long coreWait) {
        if (takenTotal == 0) {
            return;
        }
        double back =
                coreWait == OwnRunDelay.UNKNOWN
                        ? 1
                        : Math.max(0, takenTotal - coreWait) / (double) takenTotal;
        for (int i = 0; i < sample.length; i++) {
            sample[i] += Math.round(back * taken[i]);
        }
    }

    /** What reading the CPU time cost the sample. */
    long costNanos() {
        return cpuReads * cpuReadNanos;
    }

    private void openWindow() {
        cpuReads++;
        cpuAtStart = cpuClock.getAsLong();
        wall = 0;
        longest = 0;
    }
}
