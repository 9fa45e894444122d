package dev.flowscale.engine.metrics;

/**
 * Cumulative DS2 counters of one operator instance at one moment. {@code observedNanos} is the
 * instance's running time; useful + waitInput + backpressure equals it. For a source, records
 * in and records out both count the records it emitted.
 */
public record InstanceSnapshot(String operatorId, int instance, long timeNanos, long observedNanos,
                               long recordsIn, long recordsOut, long usefulNanos, long waitInputNanos,
                               long backpressureNanos, long backlog, boolean finished) {
}
