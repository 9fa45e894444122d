package dev.flowscale.cli;

import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.RescaleResult;
import dev.flowscale.policy.api.ScalingDecision;

/** What an autoscaled run reports as it goes: samples, decisions and rescales. */
interface RunListener {
    default void onSample(double elapsedSeconds, JobMetricsSnapshot snapshot) {
    }

    default void onDecision(double elapsedSeconds, ScalingDecision decision) {
    }

    /** A rescale finished: {@code result} on success, {@code failure} otherwise. */
    default void onRescale(double elapsedSeconds, RescaleResult result, Throwable failure) {
    }
}
