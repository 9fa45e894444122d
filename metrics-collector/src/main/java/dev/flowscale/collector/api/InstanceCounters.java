package dev.flowscale.collector.api;

/**
 * Cumulative DS2 counters of one operator instance since its run started. Times are seconds; useful
 * + waitInput + backpressure = observed. For a source, records in count the records it read (on the
 * engine, the same as those it emitted; on Flink, what the source operator emitted while records
 * out count what its chain emitted) and {@code backlog} the records due by its schedule but not yet
 * read, or {@link #NO_BACKLOG_SIGNAL} (NaN) while the source cannot tell (never read as 0). A keyed
 * instance also reports the records it processed per key group of the range it owns: {@code
 * keyGroupRecords[i]} counts key group {@code keyGroupFirst + i}; empty where they are not counted
 * (an instance that is not keyed, an uninstrumented job, the Prometheus source). {@code cpuSeconds}
 * is the CPU time the instance's thread used and {@code coreWaitSeconds} the time it was runnable
 * but waited for a core; each {@link #UNKNOWN_CPU} (NaN) where it is not measured.
 */
public record InstanceCounters(
        String operatorId,
        int instance,
        double recordsIn,
        double recordsOut,
        double usefulSeconds,
        double waitInputSeconds,
        double backpressureSeconds,
        double observedSeconds,
        double backlog,
        boolean finished,
        int keyGroupFirst,
        long[] keyGroupRecords,
        double cpuSeconds,
        double coreWaitSeconds) {

    /** A thread time (CPU, wait for a core) that is not measured. */
    public static final double UNKNOWN_CPU = Double.NaN;

    /** The backlog of a source without a lag signal: NaN, so that no sum can pass it as 0. */
    public static final double NO_BACKLOG_SIGNAL = Double.NaN;

    public InstanceCounters {
        keyGroupRecords = keyGroupRecords == null ? new long[0] : keyGroupRecords;
    }

    /** Counters without the thread's CPU time and wait for a core. */
    public InstanceCounters(
            String operatorId,
            int instance,
            double recordsIn,
            double recordsOut,
            double usefulSeconds,
            double waitInputSeconds,
            double backpressureSeconds,
            double observedSeconds,
            double backlog,
            boolean finished,
            int keyGroupFirst,
            long[] keyGroupRecords) {
        this(
                operatorId,
                instance,
                recordsIn,
                recordsOut,
                usefulSeconds,
                waitInputSeconds,
                backpressureSeconds,
                observedSeconds,
                backlog,
                finished,
                keyGroupFirst,
                keyGroupRecords,
                UNKNOWN_CPU,
                UNKNOWN_CPU);
    }

    /** Counters without per-key-group counts. */
    public InstanceCounters(
            String operatorId,
            int instance,
            double recordsIn,
            double recordsOut,
            double usefulSeconds,
            double waitInputSeconds,
            double backpressureSeconds,
            double observedSeconds,
            double backlog,
            boolean finished) {
        this(
                operatorId,
                instance,
                recordsIn,
                recordsOut,
                usefulSeconds,
                waitInputSeconds,
                backpressureSeconds,
                observedSeconds,
                backlog,
                finished,
                0,
                new long[0]);
    }

    /** Whether any counter of this reading is below the same counter in {@code earlier}. */
    public boolean wentBackwardsSince(InstanceCounters earlier) {
        return recordsIn < earlier.recordsIn
                || recordsOut < earlier.recordsOut
                || usefulSeconds < earlier.usefulSeconds
                || observedSeconds < earlier.observedSeconds;
    }
}
