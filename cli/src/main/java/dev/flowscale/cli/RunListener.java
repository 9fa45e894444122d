package dev.flowscale.cli;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.policy.api.ScalingDecision;

/** What an autoscaled run reports as it goes: samples, decisions and rescales. */
interface RunListener {
    default void onSample(double elapsedSeconds, JobMetricsSnapshot snapshot) {}

    default void onDecision(double elapsedSeconds, ScalingDecision decision) {}

    /** A rescale finished, successfully or not. */
    default void onRescale(double elapsedSeconds, RescaleReport report) {}
}
