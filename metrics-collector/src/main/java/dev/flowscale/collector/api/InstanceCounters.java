package dev.flowscale.collector.api;

/**
 * Cumulative DS2 counters of one operator instance since its run started. Times are seconds;
 * useful + waitInput + backpressure = observed. For a source, records in and out both count
 * the records it emitted and {@code backlog} the records due by its schedule but not yet emitted.
 */
public record InstanceCounters(String operatorId, int instance, double recordsIn, double recordsOut,
        double usefulSeconds, double waitInputSeconds, double backpressureSeconds, double observedSeconds,
        double backlog, boolean finished) {

    /** Whether any counter of this reading is below the same counter in {@code earlier}. */
    public boolean wentBackwardsSince(InstanceCounters earlier) {
        return recordsIn < earlier.recordsIn || recordsOut < earlier.recordsOut
                || usefulSeconds < earlier.usefulSeconds || observedSeconds < earlier.observedSeconds;
    }
}
