package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.RescaleReporting;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
        Clock clock) {

    /**
     * Applies the runner's Deployment; returns when a changed template went out (the deploy timeout
     * counts from there), or null when the Deployment already had it.
     */
    Instant applyRunner(Deployment desired, Deployment existing) {
        boolean changed = existing == null || !cluster.upToDate(desired, existing);
        cluster.apply(desired, existing);
        return changed ? clock.instant() : null;
    }
}
