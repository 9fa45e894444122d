package dev.flowscale.policy.api;

import java.util.Optional;

/**
 * Port to the autoscaler's metrics windows: the running job's topology and its latest metrics
 * window.
 */
public interface MetricsProvider {

    /** The job as it currently runs (current parallelism per operator). */
    JobTopology topology();

    /** The latest complete window, or empty when none is available yet. */
    Optional<MetricsWindow> currentWindow();
}
