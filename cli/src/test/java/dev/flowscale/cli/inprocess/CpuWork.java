package dev.flowscale.cli.inprocess;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

/**
 * A fixed amount of CPU work per record, as a real operator does: a counted loop of dependent
 * arithmetic steps, whose wall-clock time grows when its thread waits for a core (a deadline-based
 * spin would absorb that wait and hide contention). Calibrated once against the calling thread's
 * CPU time, which a loaded machine does not inflate.
 */
final class CpuWork {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuWork() {}

    /**
     * {@code steps} xorshift steps from {@code seed}; the result keeps the loop from being elided.
     */
    static long run(long steps, long seed) {
        long x = seed | 1;
        for (long i = 0; i < steps; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** The steps that take {@code cpu} of CPU time on this machine. */
    static long stepsFor(Duration cpu) {
        long sink = 0;
        for (int i = 0; i < 20; i++) {
            sink += run(5_000_000, i); // compiled before it is timed
        }
        long steps = 200_000_000;
        long start = THREADS.getCurrentThreadCpuTime();
        sink += run(steps, sink);
        long nanos = THREADS.getCurrentThreadCpuTime() - start;
        if (nanos <= 0 || sink == 0) {
            throw new IllegalStateException("no CPU time measured for " + steps + " steps");
        }
        return Math.max(1, Math.round((double) steps * cpu.toNanos() / nanos));
    }
}
