package dev.flowscale.engine.metrics;

/**
 * Cumulative DS2 counters of one operator instance at one moment. {@code observedNanos} is the
 * instance's running time; useful + waitInput + backpressure equals it. For a source, records in
 * and records out both count the records it emitted. A keyed instance also has its records per key
 * group: {@code keyGroupRecords[i]} counts key group {@code keyGroupFirst + i} of the range it owns
 * (published per batch, so their sum trails {@code recordsIn} by at most the batch under way);
 * empty for an instance that is not keyed. {@code backlog} is -1 while a source cannot tell what it
 * owes ({@link #backlogKnown()} false): no signal, not zero. {@code cpuNanos} is the CPU time its
 * task thread has used, read from the JVM at the snapshot ({@link ThreadCpu}); -1 where it is not
 * known (the JVM does not measure thread CPU time, or the thread has ended). {@code coreWaitNanos}
 * is the time the thread was runnable but waited for a core ({@link ThreadSchedule}), -1 where not
 * known; wall-clock useful time includes the part of it spent while processing.
 */
public record InstanceSnapshot(
        String operatorId,
        int instance,
        long timeNanos,
        long observedNanos,
        long recordsIn,
        long recordsOut,
        long usefulNanos,
        long waitInputNanos,
        long backpressureNanos,
        long backlog,
        boolean finished,
        int keyGroupFirst,
        long[] keyGroupRecords,
        long cpuNanos,
        long coreWaitNanos) {

    /** Counters without the thread's CPU time (-1: not known). */
    public InstanceSnapshot(
            String operatorId,
            int instance,
            long timeNanos,
            long observedNanos,
            long recordsIn,
            long recordsOut,
            long usefulNanos,
            long waitInputNanos,
            long backpressureNanos,
            long backlog,
            boolean finished,
            int keyGroupFirst,
            long[] keyGroupRecords) {
        this(
                operatorId,
                instance,
                timeNanos,
                observedNanos,
                recordsIn,
                recordsOut,
                usefulNanos,
                waitInputNanos,
                backpressureNanos,
                backlog,
                finished,
                keyGroupFirst,
                keyGroupRecords,
                -1,
                -1);
    }

    /** Counters of an instance that does not count key groups. */
    public InstanceSnapshot(
            String operatorId,
            int instance,
            long timeNanos,
            long observedNanos,
            long recordsIn,
            long recordsOut,
            long usefulNanos,
            long waitInputNanos,
            long backpressureNanos,
            long backlog,
            boolean finished) {
        this(
                operatorId,
                instance,
                timeNanos,
                observedNanos,
                recordsIn,
                recordsOut,
                usefulNanos,
                waitInputNanos,
                backpressureNanos,
                backlog,
                finished,
                0,
                new long[0]);
    }

    /** These counters with the task thread's CPU time and wait for a core (-1: not known). */
    public InstanceSnapshot withThreadTimes(long cpu, long coreWait) {
        return new InstanceSnapshot(
                operatorId,
                instance,
                timeNanos,
                observedNanos,
                recordsIn,
                recordsOut,
                usefulNanos,
                waitInputNanos,
                backpressureNanos,
                backlog,
                finished,
                keyGroupFirst,
                keyGroupRecords,
                cpu,
                coreWait);
    }

    /** Whether the instance reports a backlog (always, except a source without a lag signal). */
    public boolean backlogKnown() {
        return backlog >= 0;
    }
}
