package dev.flowscale.engine.runtime;

/**
 * The chain thread's wait for a core (its run delay) during a chain timing's sample, less what it
 * gathered while the sample was paused (blocked on output or waiting: the wake-up from that wait
 * may queue the thread for a core, and that falls outside the sample's length). Read from the
 * thread's schedstat file ({@link OwnRunDelay}). Used on the chain's thread only.
 */
final class SampleRunDelay implements AutoCloseable {
    /** Opened on the chain's thread at its first sample. */
    private OwnRunDelay runDelay;

    private long atStart;

    /** Run delay the thread gathered while the sample was paused: not the sample's to carry. */
    private long whilePaused;

    private long pausedAt;

    private int pauses;

    /** The least time a read of the run delay took: one preempted read must not count. */
    private long readNanos = Long.MAX_VALUE;

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

    /** The sample stops counting (the thread blocks on output or waits). */
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
     * The sample has ended: the nanoseconds it waited for a core, or {@link OwnRunDelay#UNKNOWN}.
     */
    long waited() {
        long delay = runDelay.nanos();
        return delay == OwnRunDelay.UNKNOWN || atStart == OwnRunDelay.UNKNOWN
                ? OwnRunDelay.UNKNOWN
                : Math.max(0, delay - atStart - whilePaused);
    }

    @Override
    public void close() {
        if (runDelay != null) {
            runDelay.close();
        }
    }
}
