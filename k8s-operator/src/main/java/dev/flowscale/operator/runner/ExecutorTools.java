package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.RescaleReporting;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;

/**
 * What the one executor works with: the cluster (the runner's resources), the runner's control API,
 * Events, rescale reporting, how long a changed runner of a job may take to run
 * (spec.timeouts.rescale or the operator's default), and the clock.
 */
public record ExecutorTools(
        RunnerCluster cluster,
        RunnerControl control,
        JobEvents events,
        RescaleReporting reporting,
        Function<StreamJob, Duration> timeout,
        Clock clock) {}
