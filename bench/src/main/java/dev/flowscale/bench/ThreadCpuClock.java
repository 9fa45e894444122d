package dev.flowscale.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time of the JVM's live Java threads between two instants (ThreadMXBean): what the job's
 * own threads spent, without the JIT compiler's and the garbage collector's threads, which the
 * process CPU time includes. A thread that ends in between is not counted; the measured jobs'
 * threads all live until their last record has reached the sink.
 */
final class ThreadCpuClock {
    private final ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> atStart = new HashMap<>();
    private final Map<String, Long> perThread = new TreeMap<>();
    private long nanos = -1;

    void start() {
        if (!bean.isThreadCpuTimeSupported()) {
            return;
        }
        for (long id : bean.getAllThreadIds()) {
            long cpu = bean.getThreadCpuTime(id);
            if (cpu >= 0) {
                atStart.put(id, cpu);
            }
        }
    }

    void stop() {
        if (!bean.isThreadCpuTimeSupported()) {
            return;
        }
        long sum = 0;
        for (long id : bean.getAllThreadIds()) {
            long cpu = bean.getThreadCpuTime(id);
            if (cpu >= 0) {
                long used = cpu - atStart.getOrDefault(id, 0L);
                sum += used;
                perThread.put(name(id), used);
            }
        }
        nanos = sum;
    }

    private String name(long id) {
        ThreadInfo info = bean.getThreadInfo(id);
        return (info == null ? "?" : info.getThreadName()) + "#" + id;
    }

    /** Each thread's CPU nanoseconds between start and stop, by name and id; empty if unknown. */
    Map<String, Long> perThreadNanos() {
        return perThread;
    }

    /** Seconds between start and stop, or NaN when the JVM cannot tell. */
    double seconds() {
        return nanos < 0 ? Double.NaN : nanos / 1e9;
    }
}
