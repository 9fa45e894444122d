package dev.flowscale.engine.runtime;

/**
 * A latency marker (as Flink's latency tracking): emitted by a source instance at the job's latency
 * interval, it travels through the dataflow beside the records, in the same channels and behind the
 * records emitted before it, but never enters a user function. Each operator instance it reaches
 * records how long it has been under way, per source operator, and forwards it.
 *
 * @param source the id of the source operator that emitted it
 * @param sourceInstance the index of the source instance that emitted it
 * @param emittedAtMillis the source's wall clock (the job's {@link java.time.Clock}) at emission
 */
record LatencyMarker(String source, int sourceInstance, long emittedAtMillis) {}
