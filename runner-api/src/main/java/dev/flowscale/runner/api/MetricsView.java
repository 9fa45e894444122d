package dev.flowscale.runner.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code GET /api/v1/metrics}: cumulative DS2 counters of every instance at one moment.
 * Readers derive rates from the differences between two of these with the same run id ({@link
 * Rate}).
 *
 * @param job job name
 * @param runId the run the counters belong to; a new run starts its counters at zero
 * @param timeMillis wall-clock time of the snapshot, milliseconds since the epoch
 * @param parallelism instances per operator, in topological order
 * @param instances counters per instance
 * @param cpu the runner's CPU throttling counters (its cgroup's); null where the runner cannot read
 *     them (no cgroup v2, or an older runner)
 */
public record MetricsView(
        String job,
        String runId,
        long timeMillis,
        Map<String, Integer> parallelism,
        List<InstanceCounts> instances,
        CpuThrottling cpu) {

    /** A view without throttling counters. */
    public MetricsView(
            String job,
            String runId,
            long timeMillis,
            Map<String, Integer> parallelism,
            List<InstanceCounts> instances) {
        this(job, runId, timeMillis, parallelism, instances, null);
    }

    /**
     * Cumulative CPU throttling of the runner's cgroup ({@code cpu.stat} of cgroup v2): how often
     * and how long its CPU limit kept every thread of it off the cores. Time throttled in a window
     * is time the instances' useful time counts but no instance could run.
     *
     * @param periods enforcement periods elapsed ({@code nr_periods})
     * @param throttledPeriods periods in which the limit was reached ({@code nr_throttled})
     * @param throttledMicros total time throttled ({@code throttled_usec})
     */
    public record CpuThrottling(long periods, long throttledPeriods, long throttledMicros) {}

    /**
     * Cumulative counters of one operator instance (times in nanoseconds). useful + waitInput +
     * backpressure = observed. For a source, records in and out both count the records it emitted.
     *
     * <p>A value that is not known is {@code null} (absent in the JSON): the one encoding of
     * "unknown" in this record, for the backlog as for the thread times. Nothing along the way from
     * the engine's counters to the policy's window restates it as -1, 0, a flag or NaN.
     *
     * @param timeNanos the runner's monotonic clock at the reading (comparable within one runner
     *     only)
     * @param backlog records a source owes (due by its schedule, or Kafka lag) but has not emitted;
     *     0 for an instance that is not a source; null while a source cannot tell what it owes (no
     *     backlog signal: a Kafka reader that does not know its partitions' log ends yet), which
     *     must never be read as nothing owed
     * @param finished whether the instance has ended
     * @param keyGroupFirst first key group the instance owns (0 when it is not keyed)
     * @param keyGroupRecords records the instance processed in each key group of its range, from
     *     {@code keyGroupFirst} on; empty (or absent in the JSON, from an older runner) when the
     *     instance is not keyed or the job is not instrumented
     * @param cpuNanos CPU time the instance's thread has used (an operator chained with others: its
     *     part, by its useful time); null where it is not known (the JVM does not measure it, the
     *     thread has ended, or an older runner)
     * @param coreWaitNanos time the instance's thread was runnable but waited for a core (Linux
     *     schedstat run delay; the whole thread's for every operator of a chain); null where it is
     *     not known
     */
    public record InstanceCounts(
            String operatorId,
            int instance,
            long timeNanos,
            long observedNanos,
            long recordsIn,
            long recordsOut,
            long usefulNanos,
            long waitInputNanos,
            long backpressureNanos,
            Long backlog,
            boolean finished,
            int keyGroupFirst,
            long[] keyGroupRecords,
            Long cpuNanos,
            Long coreWaitNanos) {

        /** An absent {@code keyGroupRecords} is read as none counted. */
        public InstanceCounts {
            keyGroupRecords = keyGroupRecords == null ? new long[0] : keyGroupRecords;
        }

        /**
         * Reads a body from a runner of any release: one from before the null backlog says "no
         * signal" with {@code backlogUnknown: true} beside a backlog of 0, which is read as null
         * here, so it is never taken for nothing owed.
         */
        @JsonCreator
        static InstanceCounts fromJson(
                @JsonProperty("operatorId") String operatorId,
                @JsonProperty("instance") int instance,
                @JsonProperty("timeNanos") long timeNanos,
                @JsonProperty("observedNanos") long observedNanos,
                @JsonProperty("recordsIn") long recordsIn,
                @JsonProperty("recordsOut") long recordsOut,
                @JsonProperty("usefulNanos") long usefulNanos,
                @JsonProperty("waitInputNanos") long waitInputNanos,
                @JsonProperty("backpressureNanos") long backpressureNanos,
                @JsonProperty("backlog") Long backlog,
                @JsonProperty("backlogUnknown") boolean backlogUnknown,
                @JsonProperty("finished") boolean finished,
                @JsonProperty("keyGroupFirst") int keyGroupFirst,
                @JsonProperty("keyGroupRecords") long[] keyGroupRecords,
                @JsonProperty("cpuNanos") Long cpuNanos,
                @JsonProperty("coreWaitNanos") Long coreWaitNanos) {
            return new InstanceCounts(
                    operatorId,
                    instance,
                    timeNanos,
                    observedNanos,
                    recordsIn,
                    recordsOut,
                    usefulNanos,
                    waitInputNanos,
                    backpressureNanos,
                    backlogUnknown ? null : backlog,
                    finished,
                    keyGroupFirst,
                    keyGroupRecords,
                    cpuNanos,
                    coreWaitNanos);
        }

        /**
         * The null backlog as the flag an autoscaler from before it reads (it takes a missing
         * backlog for 0): written on the wire only, for a runner upgraded before its autoscaler.
         */
        @JsonProperty("backlogUnknown")
        private boolean backlogUnknownOnTheWire() {
            return backlog == null;
        }
    }
}
