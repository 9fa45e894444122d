package dev.flowscale.autoscaler.metrics;

import dev.flowscale.runner.api.MetricsView.InstanceCounts;

/**
 * Builds and reads the runner contract's counter record ({@link InstanceCounts}) for sources that
 * measure in seconds rather than in a runner's nanoseconds (Prometheus, Flink's REST API), and for
 * the windows, which divide by seconds. A sample holds the record as a runner serves it; nothing
 * restates it.
 */
public final class Counters {
    private static final double NANOS_PER_SECOND = 1e9;

    private Counters() {}

    /**
     * An instance's counters from seconds, without key-group counts or a monotonic clock reading;
     * observed time is the sum of the three phases.
     *
     * @param backlog records owed as a gauge shows them: NaN while the source cannot tell ({@link
     *     #backlog(double)})
     */
    public static InstanceCounts ofSeconds(
            String operatorId,
            int instance,
            double recordsIn,
            double recordsOut,
            double usefulSeconds,
            double waitInputSeconds,
            double backpressureSeconds,
            double backlog,
            boolean finished) {
        return withTimes(
                new InstanceCounts(
                        operatorId,
                        instance,
                        0,
                        0,
                        Math.round(recordsIn),
                        Math.round(recordsOut),
                        0,
                        0,
                        0,
                        backlog(backlog),
                        finished,
                        0,
                        new long[0],
                        null,
                        null),
                nanos(usefulSeconds),
                nanos(waitInputSeconds),
                nanos(backpressureSeconds));
    }

    /** {@code c} with other phase times (nanoseconds); observed time becomes their sum. */
    public static InstanceCounts withTimes(
            InstanceCounts c, long usefulNanos, long waitInputNanos, long backpressureNanos) {
        return new InstanceCounts(
                c.operatorId(),
                c.instance(),
                c.timeNanos(),
                usefulNanos + waitInputNanos + backpressureNanos,
                c.recordsIn(),
                c.recordsOut(),
                usefulNanos,
                waitInputNanos,
                backpressureNanos,
                c.backlog(),
                c.finished(),
                c.keyGroupFirst(),
                c.keyGroupRecords(),
                c.cpuNanos(),
                c.coreWaitNanos());
    }

    /**
     * A backlog gauge's value (Prometheus, Flink's {@code pendingRecords}) as the counter record
     * holds it: NaN, the gauge's "no signal", becomes null; a negative value 0.
     */
    public static Long backlog(double gauge) {
        return Double.isNaN(gauge) ? null : Math.max(0, Math.round(gauge));
    }

    /** Nanoseconds as seconds. */
    public static double seconds(long nanos) {
        return nanos / NANOS_PER_SECOND;
    }

    /** Seconds as whole nanoseconds; NaN (a time a source did not measure) as 0. */
    public static long nanos(double seconds) {
        return Double.isNaN(seconds) ? 0 : Math.round(seconds * NANOS_PER_SECOND);
    }

    /** Whether any counter of {@code now} is below the same counter in {@code earlier}. */
    public static boolean wentBackwards(InstanceCounts now, InstanceCounts earlier) {
        return now.recordsIn() < earlier.recordsIn()
                || now.recordsOut() < earlier.recordsOut()
                || now.usefulNanos() < earlier.usefulNanos()
                || now.observedNanos() < earlier.observedNanos();
    }
}
