package dev.flowscale.engine.api;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * A fixed amount of CPU work per record: spins until the calling thread has used the records' cost
 * in CPU time. The thread's CPU time, not a wall-clock deadline nor a loop calibrated once: it does
 * not advance while the thread waits for a core, so on a loaded machine a record takes longer in
 * wall-clock time as real work does, and it is exact whatever the JIT or the core's clock speed
 * make of a loop. Where the JVM cannot read a thread's CPU time, wall-clock time stands in, and a
 * wait for a core then counts as work.
 */
final class CpuCostMeter implements SyntheticCost.CostMeter {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long nanosPerRecord;
    private final LongSupplier cpuClock;

    /** {@code cpuClock}: the calling thread's CPU time in nanoseconds. */
    CpuCostMeter(long nanosPerRecord, LongSupplier cpuClock) {
        this.nanosPerRecord = nanosPerRecord;
        this.cpuClock = cpuClock;
    }

    /** The calling thread's CPU time, or wall-clock time where the JVM cannot read it. */
    static LongSupplier threadCpuClock() {
        return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()
                ? THREADS::getCurrentThreadCpuTime
                : System::nanoTime;
    }

    @Override
    public void charge(int records) {
        long end = cpuClock.getAsLong() + nanosPerRecord * Math.max(0, records);
        while (cpuClock.getAsLong() - end < 0) {
            // each read is a system call that uses CPU time itself: no pause needed between reads
        }
    }
}
