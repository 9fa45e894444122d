package dev.flowscale.engine.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time a task thread has used, read from the JVM where counters are snapshotted, never on
 * the task's own path: the time the thread ran on a core, which its useful (wall-clock) time
 * exceeds by the time it was runnable but waited for one, or blocked inside a call.
 */
public final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean MEASURED = enable();

    private ThreadCpu() {}

    private static boolean enable() {
        try {
            if (!THREADS.isThreadCpuTimeSupported()) {
                return false;
            }
            if (!THREADS.isThreadCpuTimeEnabled()) {
                THREADS.setThreadCpuTimeEnabled(true);
            }
            return true;
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /**
     * The thread's CPU time in nanoseconds; null when not known (not measured, or it has ended: the
     * JVM's -1).
     */
    public static Long nanos(Thread thread) {
        long nanos = MEASURED && thread != null ? THREADS.getThreadCpuTime(thread.getId()) : -1;
        return nanos < 0 ? null : nanos;
    }
}
