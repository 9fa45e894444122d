package dev.flowscale.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time of a run's engine threads by role (the thread's name without its instance number:
 * events, counts, join...), read every 50 ms while they run: on a loaded machine one role's CPU per
 * event compares two builds better than the whole JVM's, which the compiler and the garbage
 * collector share. A thread's last 50 ms at most are missed.
 */
final class ThreadCpuTally {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final Map<Long, String> names = new TreeMap<>();
    private final Map<Long, Long> cpu = new TreeMap<>();
    private final Thread sampler = new Thread(this::sampleUntilInterrupted, "thread-cpu-tally");

    static ThreadCpuTally start() {
        ThreadCpuTally tally = new ThreadCpuTally();
        tally.sampler.setDaemon(true);
        tally.sampler.start();
        return tally;
    }

    private void sampleUntilInterrupted() {
        while (!Thread.currentThread().isInterrupted()) {
            sample();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void sample() {
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null || !info.getThreadName().startsWith("flowscale-")) {
                continue;
            }
            long time = THREADS.getThreadCpuTime(info.getThreadId());
            if (time > 0) {
                names.put(info.getThreadId(), role(info.getThreadName()));
                cpu.merge(info.getThreadId(), time, Math::max);
            }
        }
    }

    /** {@code flowscale-q5-counts-1} → {@code counts}. */
    private static String role(String name) {
        String withoutInstance = name.replaceFirst("-\\d+$", "");
        return withoutInstance.substring(withoutInstance.lastIndexOf('-') + 1);
    }

    /** CPU ns per event of each role, over {@code events}. */
    synchronized String perEvent(long events) {
        sampler.interrupt();
        Map<String, Long> byRole = new TreeMap<>();
        cpu.forEach((id, time) -> byRole.merge(names.get(id), time, Long::sum));
        StringBuilder line = new StringBuilder();
        byRole.forEach(
                (role, time) ->
                        line.append(
                                String.format(
                                        Locale.ROOT, " %s=%.1f", role, (double) time / events)));
        return line.toString().trim();
    }
}
