package dev.flowscale.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time of the JVM's own native threads, by group: {@code GC} (the garbage collector's
 * workers, marker and refinement threads), {@code JIT} (the compiler threads) and {@code VM} (the
 * VM thread and its periodic task), read from Linux's {@code /proc/self/task/<tid>/schedstat}.
 * These threads live as long as the JVM, so the difference between two readings is what they used
 * in between; the process's CPU time less that is what the Java threads used, including those that
 * ended in between (ThreadMXBean cannot read a thread that has ended). Empty where there is no
 * {@code /proc} (not Linux).
 */
final class JvmInternalCpu {
    private static final Path TASKS = Path.of("/proc/self/task");

    private JvmInternalCpu() {}

    /** Nanoseconds of CPU each group's live threads used so far; empty if unknown. */
    static Map<String, Long> nanosByGroup() {
        Map<String, Long> groups = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                add(groups, task);
            }
        } catch (IOException | UncheckedIOException e) {
            return Map.of();
        }
        return groups;
    }

    private static void add(Map<String, Long> groups, Path task) {
        try {
            String group = group(Files.readString(task.resolve("comm")).strip());
            if (group != null) {
                String schedstat = Files.readString(task.resolve("schedstat"));
                long nanos = Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                groups.merge(group, nanos, Long::sum);
            }
        } catch (IOException e) {
            // the thread ended between listing and reading: it is no JVM thread that lives on
        }
    }

    /** The group of a thread by its (at most 15 characters) name, or null for a Java thread. */
    static String group(String comm) {
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
            return "GC";
        }
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
            return "JIT";
        }
        if (comm.startsWith("VM Thread") || comm.startsWith("VM Periodic")) {
            return "VM";
        }
        return null;
    }

    /** The sum of all groups in {@code to} less the same in {@code from}. */
    static long between(Map<String, Long> from, Map<String, Long> to) {
        long sum = 0;
        for (Map.Entry<String, Long> e : to.entrySet()) {
            sum += e.getValue() - from.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }
}
