package dev.flowscale.policy.api;

import java.util.Optional;

/**
 * A realizer that only records the decided parallelism where the job's executor reads it, and is
 * done (as flink-autoscaler's {@code KubernetesScalingRealizer} writes overrides for its
 * reconciler): {@link #realize}'s stage completes once the target is recorded, and fails only when
 * it could not be. The executor carries the rescale out and records how it went; the loop reads
 * that on each tick through {@link #outcome}, so nothing calls the loop back.
 */
public interface RecordingRealizer extends ScalingRealizer {

    /**
     * What became of a rescale the loop started (or an earlier loop of the job, before an operator
     * restart or a leader change), as the executor recorded it: when it finished, the path it took,
     * whether it failed, and its measured downtime as the span from {@code started} to {@code
     * finished}. Empty while it goes on.
     */
    Optional<RescaleRecord> outcome(RescaleRecord started);
}
