package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;

/**
 * A chain thread's CPU time and wait for a core, as its operators report them. The JVM and the
 * kernel know both only for the whole thread; each operator of the chain gets:
 *
 * <ul>
 *   <li>CPU time: its part of the thread's, by its measured share of the thread's useful time (the
 *       {@link ChainTiming} shares, as they entered each operator's useful time) since the previous
 *       reading. An operator doing three quarters of the chain's work thus shows three quarters of
 *       its CPU time, and the members' CPU times add up to the thread's. CPU time the thread spent
 *       with no useful time at all (waiting, polling its input) goes to the head, which waits.
 *   <li>wait for a core: the thread's whole run delay. Preemption strikes the thread's work
 *       wherever it is, so each operator's useful time holds the same fraction of waiting for a
 *       core as the thread's; a reader takes the part of an instance's run delay that fell in its
 *       useful time in proportion to that useful time (docs/metrics.md), which is the measured
 *       share here. Split between the operators beforehand, evenly or by share, the wait would be
 *       attributed twice and every chained operator's would come out too small.
 * </ul>
 *
 * Readings may come from several threads at once: one at a time updates the attribution.
 */
final class ChainThreadTimes {
    private final InstanceCounterRecorder[] recorders;

    /** The thread's CPU time at the previous reading. */
    private long lastCpu;

    /** Each operator's useful time at the previous reading. */
    private final long[] lastUseful;

    /** CPU time attributed to each operator so far (fractions kept: many small deltas). */
    private final double[] attributed;

    ChainThreadTimes(InstanceCounterRecorder[] recorders) {
        this.recorders = recorders.clone();
        this.lastUseful = new long[recorders.length];
        this.attributed = new double[recorders.length];
    }

    /**
     * The operators' counters as of {@code now}, in the order they were given (the head first),
     * with their part of the thread's CPU time {@code cpuNanos} and its run delay {@code
     * coreWaitNanos}; either may be null, not known, and stays so.
     */
    synchronized InstanceCounts[] snapshot(long now, Long cpuNanos, Long coreWaitNanos) {
        InstanceCounts[] counts = new InstanceCounts[recorders.length];
        if (recorders.length == 1) {
            counts[0] = recorders[0].snapshot(now, cpuNanos, coreWaitNanos);
            return counts;
        }
        for (int i = 0; i < counts.length; i++) {
            counts[i] = recorders[i].snapshot(now);
        }
        if (cpuNanos != null) {
            attribute(cpuNanos, counts);
        }
        for (int i = 0; i < counts.length; i++) {
            Long cpu = cpuNanos == null ? null : Math.round(attributed[i]);
            counts[i] = withThreadTimes(counts[i], cpu, coreWaitNanos);
        }
        return counts;
    }

    /** Splits the CPU time since the previous reading by the useful time each operator gained. */
    private void attribute(long cpuNanos, InstanceCounts[] counts) {
        long cpu = Math.max(0, cpuNanos - lastCpu);
        lastCpu = Math.max(lastCpu, cpuNanos);
        long[] gained = new long[counts.length];
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            // A reading taken earlier but locked in later can be behind: it gained nothing.
            gained[i] = Math.max(0, counts[i].usefulNanos() - lastUseful[i]);
            lastUseful[i] += gained[i];
            total += gained[i];
        }
        if (total == 0) {
            attributed[0] += cpu;
            return;
        }
        for (int i = 0; i < counts.length; i++) {
            attributed[i] += cpu * (double) gained[i] / total;
        }
    }

    private static InstanceCounts withThreadTimes(InstanceCounts c, Long cpu, Long coreWait) {
        return new InstanceCounts(
                c.operatorId(),
                c.instance(),
                c.timeNanos(),
                c.observedNanos(),
                c.recordsIn(),
                c.recordsOut(),
                c.usefulNanos(),
                c.waitInputNanos(),
                c.backpressureNanos(),
                c.backlog(),
                c.finished(),
                c.keyGroupFirst(),
                c.keyGroupRecords(),
                cpu,
                coreWait);
    }
}
