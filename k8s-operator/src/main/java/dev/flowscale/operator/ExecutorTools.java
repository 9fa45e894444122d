package dev.flowscale.operator;

import java.time.Clock;
import java.time.Duration;

/**
 * What the one executor works with: the cluster (the runner's resources), the runner's control
 * API, Events, rescale reporting, how long a changed runner may take to run, and the clock.
 */
record ExecutorTools(RunnerCluster cluster, RunnerControl control, JobEvents events, RescaleReporting reporting,
                     Duration timeout, Clock clock) {
}
