package dev.flowscale.operator;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a StreamJob into its runner's ConfigMap, Service and Deployment and reports what it
 * sees in status. It works on the job as the API server has it now, under the job's lock in the
 * {@link JobStatusStore}, and writes status only through the store, so it never interleaves with
 * the job's autoscaler loop (which records rescales the same way). A spec it cannot run sets
 * phase Failed with a Degraded condition and one Warning Event per distinct problem; it is not
 * retried until the spec changes (a missing savepoint claim is checked again every minute), so a
 * bad spec never hot-loops.
 */
@ControllerConfiguration(name = StreamJobReconciler.NAME)
public final class StreamJobReconciler implements Reconciler<StreamJob> {
    private static final Logger LOG = LoggerFactory.getLogger(StreamJobReconciler.class);
    public static final String NAME = "streamjob";
    static final Duration DEPLOYING_RECHECK = Duration.ofSeconds(5);
    static final Duration CLAIM_RECHECK = Duration.ofMinutes(1);
    private final RunnerCluster cluster;
    private final JobEvents events;
    private final Clock clock;
    private final AutoscalerLoops loops;
    private final RunnerControl control;
    private final JobStatusStore store;
    private final AutoscalerDefaults defaults;
    private final RunnerWatch watch;

    /** What one pass wrote: the job as the server has it afterwards, and when to look again (or null). */
    private record Pass(StreamJob job, Duration recheck) {
    }

    StreamJobReconciler(RunnerCluster cluster, JobEvents events, AutoscalerLoops loops, RunnerControl control,
                        JobStatusStore store, AutoscalerDefaults defaults, Clock clock) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.events = Objects.requireNonNull(events, "events");
        this.loops = Objects.requireNonNull(loops, "loops");
        this.control = Objects.requireNonNull(control, "control");
        this.store = Objects.requireNonNull(store, "store");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.watch = new RunnerWatch(clock,
                RunnerWatch.defaultDeployTimeout(System.getenv(RunnerWatch.DEPLOY_TIMEOUT_ENV)));
    }

    @Override
    public List<EventSource<?, StreamJob>> prepareEventSources(EventSourceContext<StreamJob> context) {
        return watch.eventSources(context); // runner Deployments and pods: their failures reach status
    }

    @Override
    public UpdateControl<StreamJob> reconcile(StreamJob cached, Context<StreamJob> context) {
        String ns = namespace(cached);
        String name = cached.getMetadata().getName();
        Pass pass = store.locked(ns, name, () -> {
            StreamJob latest = store.latest(ns, name);
            return latest == null ? null : apply(defaults.resolveJob(latest));
        });
        if (pass == null || pass.job() == null) {
            store.forget(ns, name);
            return UpdateControl.noUpdate();
        }
        loops.reconcile(defaults.resolveJob(pass.job()));
        return pass.recheck() == null ? UpdateControl.noUpdate()
                : UpdateControl.<StreamJob>noUpdate().rescheduleAfter(pass.recheck());
    }

    private Pass apply(StreamJob job) {
        List<String> problems = SpecValidator.problems(job.getSpec());
        if (!problems.isEmpty()) {
            return fail(job, JobEvents.INVALID_SPEC, "StreamJob " + name(job) + ": " + String.join("; ", problems),
                    null);
        }
        String claim = job.getSpec().savepoints.claimName;
        if (claim != null && !claim.isBlank() && !cluster.claimExists(namespace(job), claim)) {
            return fail(job, JobEvents.SAVEPOINT_CLAIM_MISSING, "StreamJob " + name(job)
                    + ": PersistentVolumeClaim '" + claim + "' (spec.savepoints.claimName) does not exist in namespace "
                    + namespace(job) + ": create it or correct the name", CLAIM_RECHECK);
        }
        Map<String, Integer> parallelism = currentParallelism(job);
        cluster.apply(RunnerResources.configMap(job, parallelism));
        cluster.apply(RunnerResources.service(job));
        cluster.apply(RunnerResources.tokenSecret(job)); // created once; the runner's control API token
        if (!loops.rescaling(job)) {
            cluster.apply(runnerDeployment(job, parallelism));
        }
        return observe(job, parallelism);
    }

    /**
     * The runner Deployment to apply (not during a rescale: the autoscaler loop owns the runner
     * then). When a spec change (job, image, resources, parallelism, suspend) would replace a
     * running runner, the runner first stops with a savepoint, recorded in status at once, and the
     * new one restores from it (a savepoint upgrade; suspending keeps the savepoint for the resume).
     */
    private Deployment runnerDeployment(StreamJob job, Map<String, Integer> parallelism) {
        StreamJobStatus status = status(job);
        Deployment desired = RunnerDeployment.desired(job, parallelism, status.lastSavepoint);
        boolean specChanged = status.observedGeneration != null && !status.observedGeneration.equals(generation(job));
        if (!specChanged || cluster.upToDate(desired)
                || cluster.readyReplicas(namespace(job), RunnerResources.runnerName(job)) == 0) {
            return desired;
        }
        String savepoint = control.stopWithSavepoint(job);
        store.edit(namespace(job), job.getMetadata().getName(), s -> s.lastSavepoint = savepoint);
        events.normal(job, JobEvents.SAVEPOINT_UPGRADE, "runner " + RunnerResources.runnerName(job)
                + " stopped with savepoint " + savepoint + " for generation " + generation(job)
                + (job.getSpec().suspend ? " (suspended)" : "; the new runner restores from it"));
        return RunnerDeployment.desired(job, parallelism, savepoint);
    }

    /**
     * A failure to reach the API server or a runner marks the job Degraded (when status can be
     * written at all); the SDK retries with back-off.
     */
    @Override
    public ErrorStatusUpdateControl<StreamJob> updateErrorStatus(StreamJob job, Context<StreamJob> context,
                                                                 Exception e) {
        try {
            store.edit(namespace(job), job.getMetadata().getName(), status -> Conditions.set(status,
                    Conditions.DEGRADED, true, "ReconcileError", "StreamJob " + name(job)
                            + ": reconciling failed (retrying): " + e.getMessage(), generation(job), clock.instant()));
        } catch (RuntimeException unreachable) {
            LOG.warn("StreamJob {}: cannot record the reconcile error in status: {}", name(job), unreachable.toString());
        }
        return ErrorStatusUpdateControl.defaultErrorProcessing();
    }

    private Pass observe(StreamJob job, Map<String, Integer> parallelism) {
        boolean ready = cluster.readyReplicas(namespace(job), RunnerResources.runnerName(job)) > 0;
        boolean loopRescaling = loops.rescaling(job);
        boolean[] newSpec = new boolean[1];
        StreamJob written = store.edit(namespace(job), job.getMetadata().getName(), status -> {
            newSpec[0] = !Objects.equals(status.observedGeneration, generation(job));
            observed(job, status, parallelism, ready, loopRescaling);
            watch.observe(job, status);
        });
        if (written == null) {
            return new Pass(null, null);
        }
        StreamJobStatus status = written.getStatus();
        if (newSpec[0]) {
            events.normal(written, JobEvents.DEPLOYED, "runner " + RunnerResources.runnerName(job) + " applied at "
                    + status.parallelismSummary + " for generation " + generation(job));
        }
        boolean waiting = status.phase == JobPhase.Deploying || status.phase == JobPhase.Rescaling;
        return new Pass(written, waiting ? DEPLOYING_RECHECK : null);
    }

    private void observed(StreamJob job, StreamJobStatus status, Map<String, Integer> parallelism, boolean ready,
                          boolean loopRescaling) {
        boolean rescaling = Conditions.isTrue(status, Conditions.SCALING) && loopRescaling;
        if (Conditions.isTrue(status, Conditions.SCALING) && !rescaling) {
            Conditions.set(status, Conditions.SCALING, false, "Resumed", "the rescale was interrupted (operator"
                    + " restart); the runner runs at the parallelism and from the savepoint status records",
                    generation(job), clock.instant());
        }
        status.phase = job.getSpec().suspend ? JobPhase.Suspended : rescaling ? JobPhase.Rescaling
                : ready ? JobPhase.Running : JobPhase.Deploying;
        if (!rescaling) {
            status.parallelism = new LinkedHashMap<>(parallelism);
            status.parallelismSummary = summary(parallelism);
        }
        status.observedGeneration = generation(job);
        Conditions.set(status, Conditions.READY, ready, readyReason(status.phase), readyMessage(job, status.phase),
                generation(job), clock.instant());
        Conditions.set(status, Conditions.DEGRADED, false, "SpecValid", "the spec can run", generation(job),
                clock.instant());
        if (!Conditions.find(status, Conditions.SCALING).isPresent()) {
            Conditions.set(status, Conditions.SCALING, false, "Idle", "no rescale in progress", generation(job),
                    clock.instant());
        }
    }

    private Pass fail(StreamJob job, String reason, String message, Duration recheck) {
        boolean[] known = new boolean[1];
        StreamJob written = store.edit(namespace(job), job.getMetadata().getName(), status -> {
            known[0] = Conditions.find(status, Conditions.DEGRADED)
                    .map(c -> message.equals(c.getMessage())).orElse(false);
            status.phase = JobPhase.Failed;
            status.observedGeneration = generation(job);
            Conditions.set(status, Conditions.DEGRADED, true, reason, message, generation(job), clock.instant());
            Conditions.set(status, Conditions.READY, false, reason, "fix the spec: see the Degraded condition",
                    generation(job), clock.instant());
        });
        if (written != null && !known[0]) {
            events.warning(written, reason, message);
        }
        return new Pass(written, recheck);
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
        return parallelism.isEmpty() ? "job defaults" : RunnerDeployment.parallelismArg(parallelism);
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
