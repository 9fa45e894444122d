package dev.flowscale.engine.runtime;

/**
 * Drops the chain timing's samples in which the thread waited for a core for more than {@value
 * #PREEMPTED_SHARE} of the sample's length: the wait went to whichever operator ran when the thread
 * was preempted, and on a loaded machine one such wait (milliseconds) outweighs many samples of
 * microseconds, so the shares followed the preemptions rather than the work. After {@value
 * #MAX_DROPPED} dropped in a row one is kept, so that a chain whose every sample waits (parked
 * calls woken late on a loaded machine) is still estimated. Where the run delay cannot be read,
 * every sample is kept. Used on the chain's thread only.
 */
final class SampleFilter implements AutoCloseable {
    static final double PREEMPTED_SHARE = 0.02;
    static final int MAX_DROPPED = 16;

    /** Opened on the chain's thread at its first sample. */
    private OwnRunDelay runDelay;

    private long atStart;

    /** Run delay the thread gathered while the sample was paused: not the sample's to carry. */
    private long whilePaused;

    private long pausedAt;

    private int pauses;

    /** The least time a read of the run delay took: one preempted read must not count. */
    private long readNanos = Long.MAX_VALUE;

    private int dropped;

    /** A sample starts: reads the thread's run delay so far. */
    void begin() {
        if (runDelay == null) {
            runDelay = OwnRunDelay.ofCurrentThread();
        }
        long before = System.nanoTime();
        atStart = runDelay.nanos();
        whilePaused = 0;
        pauses = 0;
        readNanos = Math.min(readNanos, System.nanoTime() - before);
    }

    /**
     * The sample stops counting (the thread blocks on output or waits): the wake-up from that wait
     * may queue the thread for a core, and that delay falls outside the sample's length.
     */
    void pause() {
        pauses++;
        pausedAt = runDelay.nanos();
    }

    /** The sample counts again: the run delay since {@link #pause} is left out of it. */
    void unpause() {
        long now = runDelay.nanos();
        if (now != OwnRunDelay.UNKNOWN && pausedAt != OwnRunDelay.UNKNOWN) {
            whilePaused += Math.max(0, now - pausedAt);
        }
    }

    /**
     * What reading the run delay costs a sample: once at its start, once at its end, and twice per
     * pause.
     */
    long costNanos() {
        return 2L * (1 + pauses) * readNanos;
    }

    /**
     * The sample has ended, {@code length} ns timed, its longest single stretch of one operator's
     * work {@code longest} ns: returns the nanoseconds to take off that stretch, or -1 to drop the
     * sample. A wait for a core that fits in the longest stretch is one preemption, which fell in
     * it: taking it off leaves the operators' work. A longer wait fell in several stretches and the
     * sample is dropped.
     */
    long correction(long length, long longest) {
        long delay = runDelay.nanos();
        long waited =
                delay == OwnRunDelay.UNKNOWN || atStart == OwnRunDelay.UNKNOWN
                        ? 0
                        : Math.max(0, delay - atStart - whilePaused);
        if (length <= 0) {
            return -1;
        }
        if (waited <= PREEMPTED_SHARE * length) {
            return 0;
        }
        if (waited <= longest) {
            dropped = 0;
            return waited;
        }
        if (++dropped < MAX_DROPPED) {
            return -1;
        }
        dropped = 0;
        return longest;
    }

    @Override
    public void close() {
        if (runDelay != null) {
            runDelay.close();
        }
    }
}
