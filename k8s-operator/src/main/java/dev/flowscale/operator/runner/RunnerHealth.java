package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The hook for conditions computed from the runner's Deployment and pods (image pull errors,
 * unschedulable pods, crash loops, readiness timeouts): the reconciler registers its event sources
 * and calls {@link #observe} at the end of every pass, inside the status write, with the Deployment
 * from the informer cache. {@link RunnerWatch} is the operator's (conditions from {@link
 * RunnerProblems}); {@link #NONE} reports nothing.
 */
public interface RunnerHealth {
    RunnerHealth NONE = (job, deployment, context, status, now) -> {};

    /**
     * Sets conditions (and, for a failure, the phase) on {@code status} from what the caches hold.
     */
    void observe(
            StreamJob job,
            Optional<Deployment> deployment,
            Context<StreamJob> context,
            StreamJobStatus status,
            Instant now);

    /** Event sources (e.g. a pod informer) whose events should reconcile the owning StreamJob. */
    default List<EventSource<?, StreamJob>> eventSources(EventSourceContext<StreamJob> context) {
        return List.of();
    }
}
