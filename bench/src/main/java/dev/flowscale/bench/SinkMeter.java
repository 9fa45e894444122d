package dev.flowscale.bench;

/**
 * Times the steady part of one run at the sink: it counts the records that reach the sink, stamps
 * the clock when the warm-up share of the expected records has arrived and again when the last one
 * has, with this JVM's CPU time (all threads) and its Java threads' CPU time at both stamps.
 * Startup, JIT warm-up and the first records are thus left out for every contender alike, in time
 * and in CPU time.
 *
 * <p>One meter per benchmark JVM; each workload runs its sink at parallelism 1, so only one thread
 * counts with {@link #record()}. Where several threads count (sources at parallelism 2), each adds
 * its records in batches with {@link #recordBatch}, and the stamps fall on the first batch that
 * reaches each mark. The stamps are read after the job has ended (its threads joined).
 */
final class SinkMeter {
    private static volatile SinkMeter current;

    private final long expected;
    private final long warmupRecords;
    private long count;
    private long warmCount;
    private long endCount;
    private boolean batched;
    private long warmNanos;
    private long endNanos;
    private long warmCpuNanos;
    private long endCpuNanos;
    private final ThreadCpuClock threads = new ThreadCpuClock();
    private java.util.Map<String, Long> warmInternal = java.util.Map.of();
    private java.util.Map<String, Long> endInternal = java.util.Map.of();

    private SinkMeter(long expected, double warmupFraction) {
        this.expected = expected;
        this.warmupRecords = (long) (expected * warmupFraction);
    }

    /** Installs a fresh meter for a run whose sink will receive {@code expected} records. */
    static SinkMeter arm(long expected, double warmupFraction) {
        current = new SinkMeter(expected, warmupFraction);
        return current;
    }

    /** Called by the sink for each record. */
    static void record() {
        current.increment();
    }

    /** Called by any of several counting threads for {@code records} more records. */
    static void recordBatch(int records) {
        SinkMeter meter = current;
        synchronized (meter) {
            meter.add(records);
        }
    }

    private void increment() {
        long n = ++count;
        if (n == warmupRecords) {
            stampWarm();
        } else if (n == expected) {
            stampEnd();
        }
    }

    private void add(int records) {
        batched = true;
        count += records;
        if (warmCount == 0 && count >= warmupRecords) {
            stampWarm();
        } else if (endCount == 0 && count >= expected) {
            stampEnd();
        }
    }

    private void stampWarm() {
        warmCount = count;
        warmNanos = System.nanoTime();
        warmCpuNanos = processCpuNanos();
        warmInternal = JvmInternalCpu.nanosByGroup();
        threads.start();
    }

    private void stampEnd() {
        endCount = count;
        endNanos = System.nanoTime();
        endCpuNanos = processCpuNanos();
        endInternal = JvmInternalCpu.nanosByGroup();
        threads.stop();
    }

    long count() {
        return count;
    }

    long expected() {
        return expected;
    }

    /** Records counted between the two stamps. */
    long measuredRecords() {
        return endCount - warmCount;
    }

    double measuredSeconds() {
        return (endNanos - warmNanos) / 1e9;
    }

    /** CPU seconds the whole JVM used between the two stamps (NaN if the JVM cannot tell). */
    double measuredCpuSeconds() {
        return warmCpuNanos < 0 || endCpuNanos < 0
                ? Double.NaN
                : (endCpuNanos - warmCpuNanos) / 1e9;
    }

    /**
     * CPU seconds the JVM's Java threads used between the two stamps: the record path without the
     * JIT compiler and the garbage collector (NaN if the JVM cannot tell). On Linux it is the
     * process's CPU time less that of the JVM's own threads, so a Java thread that ended before the
     * last stamp (a source that has emitted its last record while the rest drains) still counts;
     * elsewhere only the Java threads alive at the last stamp count.
     */
    double measuredThreadCpuSeconds() {
        if (endInternal.isEmpty() || Double.isNaN(measuredCpuSeconds())) {
            return threads.seconds();
        }
        return measuredCpuSeconds() - JvmInternalCpu.between(warmInternal, endInternal) / 1e9;
    }

    /**
     * CPU nanoseconds each group of the JVM's own threads used between the stamps (GC, JIT, VM).
     */
    java.util.Map<String, Long> measuredInternalCpuNanos() {
        java.util.Map<String, Long> used = new java.util.TreeMap<>();
        endInternal.forEach(
                (group, nanos) -> used.put(group, nanos - warmInternal.getOrDefault(group, 0L)));
        return used;
    }

    /** Each Java thread's CPU nanoseconds between the two stamps, by name and id. */
    java.util.Map<String, Long> measuredThreadCpuNanos() {
        return threads.perThreadNanos();
    }

    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
    }

    /** Whether both stamps were taken; counted one by one, no record came past the expected. */
    boolean complete() {
        boolean counted = batched ? count >= expected : count == expected;
        return counted && warmNanos > 0 && endNanos > warmNanos;
    }
}
