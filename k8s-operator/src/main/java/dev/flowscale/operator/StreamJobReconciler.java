package dev.flowscale.operator;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Reconciles a StreamJob into its runner's ConfigMap, Service and Deployment and reports what it
 * sees in status. A spec it cannot run sets phase Failed with a Degraded condition and one Warning
 * Event per distinct problem; it is not retried until the spec changes (a missing savepoint claim
 * is checked again every minute), so a bad spec never hot-loops.
 */
@ControllerConfiguration(name = StreamJobReconciler.NAME)
public final class StreamJobReconciler implements Reconciler<StreamJob> {
    public static final String NAME = "streamjob";
    static final Duration DEPLOYING_RECHECK = Duration.ofSeconds(5);
    static final Duration CLAIM_RECHECK = Duration.ofMinutes(1);
    private final RunnerCluster cluster;
    private final JobEvents events;
    private final Clock clock;
    private final AutoscalerLoops loops;
    private final RunnerControl control;

    public StreamJobReconciler(RunnerCluster cluster, JobEvents events, AutoscalerLoops loops, RunnerControl control,
                               Clock clock) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.events = Objects.requireNonNull(events, "events");
        this.loops = Objects.requireNonNull(loops, "loops");
        this.control = Objects.requireNonNull(control, "control");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public UpdateControl<StreamJob> reconcile(StreamJob job, Context<StreamJob> context) {
        UpdateControl<StreamJob> control = apply(job);
        loops.reconcile(job);
        return control;
    }

    private UpdateControl<StreamJob> apply(StreamJob job) {
        List<String> problems = SpecValidator.problems(job.getSpec());
        if (!problems.isEmpty()) {
            return fail(job, JobEvents.INVALID_SPEC, "StreamJob " + name(job) + ": " + String.join("; ", problems));
        }
        String claim = job.getSpec().savepoints.claimName;
        if (claim != null && !claim.isBlank() && !cluster.claimExists(namespace(job), claim)) {
            return fail(job, JobEvents.SAVEPOINT_CLAIM_MISSING, "StreamJob " + name(job)
                    + ": PersistentVolumeClaim '" + claim + "' (spec.savepoints.claimName) does not exist in namespace "
                    + namespace(job) + ": create it or correct the name").rescheduleAfter(CLAIM_RECHECK);
        }
        Map<String, Integer> parallelism = currentParallelism(job);
        cluster.apply(RunnerResources.configMap(job, parallelism));
        cluster.apply(RunnerResources.service(job));
        cluster.apply(runnerDeployment(job, parallelism));
        return observe(job, parallelism);
    }

    /**
     * The runner Deployment to apply. When a spec change (job, image, resources, parallelism,
     * suspend) would replace a running runner, the runner first stops with a savepoint and the new
     * one restores from it (a savepoint upgrade; suspending keeps the savepoint for the resume).
     */
    private Deployment runnerDeployment(StreamJob job, Map<String, Integer> parallelism) {
        StreamJobStatus status = status(job);
        Deployment desired = RunnerDeployment.desired(job, parallelism, status.lastSavepoint);
        boolean specChanged = status.observedGeneration != null && !status.observedGeneration.equals(generation(job));
        if (!specChanged || loops.rescaling(job) || cluster.upToDate(desired)
                || cluster.readyReplicas(namespace(job), RunnerResources.runnerName(job)) == 0) {
            return desired;
        }
        status.lastSavepoint = control.stopWithSavepoint(job);
        events.normal(job, JobEvents.SAVEPOINT_UPGRADE, "runner " + RunnerResources.runnerName(job)
                + " stopped with savepoint " + status.lastSavepoint + " for generation " + generation(job)
                + (job.getSpec().suspend ? " (suspended)" : "; the new runner restores from it"));
        return RunnerDeployment.desired(job, parallelism, status.lastSavepoint);
    }

    /** A failure to reach the API server marks the job Degraded; the SDK retries with back-off. */
    @Override
    public ErrorStatusUpdateControl<StreamJob> updateErrorStatus(StreamJob job, Context<StreamJob> context,
                                                                 Exception e) {
        Conditions.set(status(job), Conditions.DEGRADED, true, "ReconcileError", "StreamJob " + name(job)
                + ": reconciling failed (retrying): " + e.getMessage(), generation(job), clock.instant());
        return ErrorStatusUpdateControl.patchStatus(job);
    }

    private UpdateControl<StreamJob> observe(StreamJob job, Map<String, Integer> parallelism) {
        StreamJobStatus status = status(job);
        boolean newSpec = !Objects.equals(status.observedGeneration, generation(job));
        boolean ready = cluster.readyReplicas(namespace(job), RunnerResources.runnerName(job)) > 0;
        boolean rescaling = Conditions.isTrue(status, Conditions.SCALING) && loops.rescaling(job);
        if (Conditions.isTrue(status, Conditions.SCALING) && !rescaling) {
            Conditions.set(status, Conditions.SCALING, false, "Resumed", "the rescale was interrupted (operator"
                    + " restart); the runner runs at the parallelism and from the savepoint status records",
                    generation(job), clock.instant());
        }
        status.phase = job.getSpec().suspend ? JobPhase.Suspended : ready ? JobPhase.Running
                : rescaling ? JobPhase.Rescaling : JobPhase.Deploying;
        status.parallelism = new LinkedHashMap<>(parallelism);
        status.parallelismSummary = summary(parallelism);
        status.observedGeneration = generation(job);
        Conditions.set(status, Conditions.READY, ready, readyReason(status.phase), readyMessage(job, status.phase),
                generation(job), clock.instant());
        Conditions.set(status, Conditions.DEGRADED, false, "SpecValid", "the spec can run", generation(job),
                clock.instant());
        if (!Conditions.find(status, Conditions.SCALING).isPresent()) {
            Conditions.set(status, Conditions.SCALING, false, "Idle", "no rescale in progress", generation(job),
                    clock.instant());
        }
        if (newSpec) {
            events.normal(job, JobEvents.DEPLOYED, "runner " + RunnerResources.runnerName(job) + " applied at "
                    + status.parallelismSummary + " for generation " + generation(job));
        }
        UpdateControl<StreamJob> control = UpdateControl.patchStatus(job);
        boolean waiting = status.phase == JobPhase.Deploying || status.phase == JobPhase.Rescaling;
        return waiting ? control.rescheduleAfter(DEPLOYING_RECHECK) : control;
    }

    private UpdateControl<StreamJob> fail(StreamJob job, String reason, String message) {
        StreamJobStatus status = status(job);
        boolean known = Conditions.find(status, Conditions.DEGRADED)
                .map(c -> message.equals(c.getMessage())).orElse(false);
        status.phase = JobPhase.Failed;
        status.observedGeneration = generation(job);
        Conditions.set(status, Conditions.DEGRADED, true, reason, message, generation(job), clock.instant());
        Conditions.set(status, Conditions.READY, false, reason, "fix the spec: see the Degraded condition",
                generation(job), clock.instant());
        if (!known) {
            events.warning(job, reason, message);
        }
        return UpdateControl.patchStatus(job);
    }

    /**
     * The spec's parallelism, overlaid in mode auto with what the autoscaler has set (in status),
     * sorted by operator id so the runner's arguments, and so its pod template, never change with map order.
     */
    static Map<String, Integer> currentParallelism(StreamJob job) {
        Map<String, Integer> parallelism = new TreeMap<>();
        if (job.getSpec().parallelism != null) {
            parallelism.putAll(job.getSpec().parallelism);
        }
        if (job.getSpec().autoscaler.mode == AutoscalerMode.AUTO && job.getStatus() != null) {
            parallelism.putAll(job.getStatus().parallelism);
        }
        return parallelism;
    }

    static String summary(Map<String, Integer> parallelism) {
        return parallelism.isEmpty() ? "job defaults" : parallelism.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    private static String readyReason(JobPhase phase) {
        return switch (phase) {
            case Running -> "RunnerReady";
            case Suspended -> "Suspended";
            default -> "RunnerStarting";
        };
    }

    private static String readyMessage(StreamJob job, JobPhase phase) {
        return switch (phase) {
            case Running -> "runner " + RunnerResources.runnerName(job) + " is ready";
            case Suspended -> "spec.suspend is true: set it to false to run the job";
            default -> "waiting for runner " + RunnerResources.runnerName(job) + " to become ready";
        };
    }

    private static StreamJobStatus status(StreamJob job) {
        if (job.getStatus() == null) {
            job.setStatus(new StreamJobStatus());
        }
        return job.getStatus();
    }

    private static String name(StreamJob job) {
        return namespace(job) + "/" + job.getMetadata().getName();
    }

    private static String namespace(StreamJob job) {
        return job.getMetadata().getNamespace();
    }

    private static Long generation(StreamJob job) {
        return job.getMetadata().getGeneration();
    }
}
