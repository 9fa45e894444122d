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
        readNanos = Math.min(readNanos, System.nanoTime() - before);
    }

    /** What reading the run delay costs a sample: once at its start, once at its end. */
    long costNanos() {
        return 2 * readNanos;
    }

    /** The sample has ended, {@code length} ns timed: whether it is kept. */
    boolean keep(long length) {
        long delay = runDelay.nanos();
        boolean preempted =
                delay != OwnRunDelay.UNKNOWN
                        && atStart != OwnRunDelay.UNKNOWN
                        && delay - atStart > PREEMPTED_SHARE * length;
        if (length <= 0 || (preempted && ++dropped < MAX_DROPPED)) {
            return false;
        }
        dropped = 0;
        return true;
    }

    @Override
    public void close() {
        if (runDelay != null) {
            runDelay.close();
        }
    }
}
