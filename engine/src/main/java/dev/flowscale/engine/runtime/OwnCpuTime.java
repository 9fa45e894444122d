package dev.flowscale.engine.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The calling thread's own CPU time ({@code clock_gettime} on the thread's CPU clock, through the
 * JVM): it does not advance while the thread waits for a core or is blocked, so the difference
 * between two readings and the wall-clock time between them is the thread's time off its core. A
 * read is a system call (1.5 µs on a virtual machine, 60 times a {@link System#nanoTime}).
 */
final class OwnCpuTime {
    /** What {@link #nanos} answers where the JVM cannot read the thread's CPU time. */
    static final long UNKNOWN = -1;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean MEASURED = measured();

    /** The least time one read takes, as {@link ChainTiming#READ_NANOS} for the wall clock. */
    static final long READ_NANOS = calibrate();

    private OwnCpuTime() {}

    /** Nanoseconds of CPU time the calling thread has used, or {@link #UNKNOWN}. */
    static long nanos() {
        if (!MEASURED) {
            return UNKNOWN;
        }
        long nanos = THREADS.getCurrentThreadCpuTime();
        return nanos < 0 ? UNKNOWN : nanos;
    }

    private static boolean measured() {
        try {
            return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    private static long calibrate() {
        if (!MEASURED) {
            return 0;
        }
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 20; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                nanos();
            }
            best = Math.min(best, (System.nanoTime() - start) / 50);
        }
        return best;
    }
}
