package dev.flowscale.operator;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.flink.FlinkTargets;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.Changes;
import dev.flowscale.operator.runner.RunnerCluster;
import dev.flowscale.operator.runner.RunnerDefaults;
import dev.flowscale.operator.runner.RunnerDeployment;
import dev.flowscale.operator.runner.RunnerExecutor;
import dev.flowscale.operator.runner.RunnerHealth;
import dev.flowscale.operator.runner.RunnerProblems;
import dev.flowscale.operator.runner.RunnerResources;
import dev.flowscale.operator.runner.RunnerWatch;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a StreamJob into its runner's ConfigMap, Service and Deployment, reading them from
 * informer caches (whose events, like the autoscaler's recorded decisions, trigger a pass) and
 * changing the runner only through the {@link RunnerExecutor}, the one actor that does. Status is
 * written with optimistic concurrency ({@link ReconcileStatus}). A spec it cannot run sets phase
 * Failed with a Degraded condition and one Warning Event per distinct problem; it is not retried
 * until the spec changes (a missing savepoint claim is checked again every minute).
 */
// Not generation-aware: the autoscaler records its decisions in status, and they must trigger a
// pass.
@ControllerConfiguration(name = StreamJobReconciler.NAME, generationAwareEventProcessing = false)
public final class StreamJobReconciler implements Reconciler<StreamJob> {
    private static final Logger LOG = LoggerFactory.getLogger(StreamJobReconciler.class);
    public static final String NAME = "streamjob";
    static final Duration DEPLOYING_RECHECK = Duration.ofSeconds(2);
    static final Duration CLAIM_RECHECK = Duration.ofMinutes(1);
    private static final String MANAGED = "app.kubernetes.io/managed-by=flowscale-operator";
    private final RunnerCluster cluster;
    private final JobEvents events;
    private final Clock clock;
    private final JobAutoscalers loops;
    private final RunnerExecutor executor;
    private final AutoscalerDefaults defaults;
    private final RunnerDefaults runnerDefaults;
    private final RunnerHealth health;
    private final FlinkTargets flink;
    private final ObservedStatus observedStatus;
    private final SimpleInboundEventSource<StreamJob> decisions =
            new SimpleInboundEventSource<>("decisions");

    StreamJobReconciler(
            RunnerCluster cluster,
            JobEvents events,
            JobAutoscalers loops,
            RunnerExecutor executor,
            AutoscalerDefaults defaults,
            RunnerDefaults runnerDefaults,
            RunnerHealth health,
            FlinkTargets flink,
            Clock clock) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.events = Objects.requireNonNull(events, "events");
        this.loops = Objects.requireNonNull(loops, "loops");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.runnerDefaults = Objects.requireNonNull(runnerDefaults, "runnerDefaults");
        this.health = Objects.requireNonNull(health, "health");
        this.flink = Objects.requireNonNull(flink, "flink");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.observedStatus = new ObservedStatus(clock);
    }

    @Override
    public List<EventSource<?, StreamJob>> prepareEventSources(
            EventSourceContext<StreamJob> context) {
        List<EventSource<?, StreamJob>> sources =
                new ArrayList<>(
                        List.of(
                                decisions,
                                informer(Deployment.class, context),
                                informer(ConfigMap.class, context),
                                informer(Service.class, context)));
        sources.addAll(health.eventSources(context));
        return sources;
    }

    private static <R extends HasMetadata> InformerEventSource<R, StreamJob> informer(
            Class<R> type, EventSourceContext<StreamJob> c) {
        return new InformerEventSource<>(
                InformerEventSourceConfiguration.from(type, StreamJob.class)
                        .withLabelSelector(MANAGED)
                        .build(),
                c);
    }

    @Override
    public UpdateControl<StreamJob> reconcile(StreamJob job, Context<StreamJob> context) {
        boolean flinkTarget = job.getSpec() != null && job.getSpec().flink != null;
        ReconcileStatus pass =
                new ReconcileStatus(
                        flinkTarget
                                ? defaults.resolveJob(job)
                                : runnerDefaults.resolveJob(defaults.resolveJob(job)),
                        context);
        Duration recheck = apply(pass, context);
        ResourceID id = ResourceID.fromResource(job);
        loops.reconcile(
                pass.job(),
                new JobAutoscalers.JobHandle(
                        () -> decisions.propagateEvent(id),
                        () -> context.getPrimaryCache().get(id)));
        return recheck == null
                ? UpdateControl.noUpdate()
                : UpdateControl.<StreamJob>noUpdate().rescheduleAfter(recheck);
    }

    private Duration apply(ReconcileStatus pass, Context<StreamJob> context) {
        StreamJob job = pass.job();
        List<String> problems = SpecValidator.problems(job.getSpec());
        if (!problems.isEmpty()) {
            return fail(
                    pass,
                    JobEvents.INVALID_SPEC,
                    "StreamJob " + name(job) + ": " + String.join("; ", problems),
                    null);
        }
        if (job.getSpec().flink != null) {
            return flink.apply(pass, this::fail);
        }
        String claim = job.getSpec().savepoints.claimName;
        if (claim != null && !claim.isBlank() && !cluster.claimExists(namespace(job), claim)) {
            return fail(
                    pass,
                    JobEvents.SAVEPOINT_CLAIM_MISSING,
                    "StreamJob "
                            + name(job)
                            + ": PersistentVolumeClaim '"
                            + claim
                            + "' (spec.savepoints.claimName) does not exist in namespace "
                            + namespace(job)
                            + ": create it or correct the name",
                    CLAIM_RECHECK);
        }
        cluster.apply(
                RunnerResources.tokenSecret(job),
                null); // created once: the runner's control API token
        cluster.apply(
                RunnerResources.service(job),
                context.getSecondaryResource(Service.class).orElse(null));
        Duration recheck = executor.execute(pass, context.getSecondaryResource(Deployment.class));
        cluster.apply(
                RunnerResources.configMap(pass.job(), pass.status().parallelism),
                context.getSecondaryResource(ConfigMap.class).orElse(null));
        Duration observed = observe(pass, context);
        return recheck == null
                ? observed
                : observed == null || recheck.compareTo(observed) < 0 ? recheck : observed;
    }

    /**
     * A failure to reach the API server or a runner marks the job Degraded (when status can be
     * written at all); the SDK retries with back-off.
     */
    @Override
    public ErrorStatusUpdateControl<StreamJob> updateErrorStatus(
            StreamJob job, Context<StreamJob> context, Exception e) {
        try {
            new ReconcileStatus(job, context)
                    .write(
                            status ->
                                    Conditions.set(
                                            status,
                                            Conditions.DEGRADED,
                                            true,
                                            "ReconcileError",
                                            "StreamJob "
                                                    + name(job)
                                                    + ": reconciling failed (retrying): "
                                                    + e.getMessage(),
                                            generation(job),
                                            clock.instant()));
        } catch (RuntimeException unreachable) {
            LOG.warn(
                    "StreamJob {}: cannot record the reconcile error in status: {}",
                    name(job),
                    unreachable.toString());
        }
        return ErrorStatusUpdateControl.defaultErrorProcessing();
    }

    private Duration observe(ReconcileStatus pass, Context<StreamJob> context) {
        StreamJob job = pass.job();
        Optional<Deployment> deployment = context.getSecondaryResource(Deployment.class);
        boolean ready = Changes.ready(deployment);
        boolean newSpec = !Objects.equals(pass.status().observedGeneration, generation(job));
        Optional<String> refusedBefore = refusal(pass.status());
        boolean applied = deployment.map(d -> applied(pass.status(), job, d)).orElse(false);
        pass.write(
                status -> {
                    observedStatus.observed(job, status, ready, applied);
                    health.observe(job, deployment, context, status, clock.instant());
                });
        StreamJobStatus status = pass.status();
        refusal(status)
                .filter(message -> !refusedBefore.equals(Optional.of(message)))
                .ifPresent(message -> events.warning(job, RunnerProblems.FAILED_CREATE, message));
        if (newSpec && Objects.equals(status.observedGeneration, generation(job))) {
            events.normal(
                    pass.job(),
                    JobEvents.DEPLOYED,
                    "runner "
                            + RunnerResources.runnerName(job)
                            + " applied at "
                            + status.parallelismSummary
                            + " for generation "
                            + generation(job));
        }
        return status.phase == JobPhase.Deploying
                ? DEPLOYING_RECHECK
                : status.phase == JobPhase.Rescaling ? Changes.PENDING_RECHECK : null;
    }

    /** The message of a pod creation the cluster refused, from condition RunnerHealthy. */
    private static Optional<String> refusal(StreamJobStatus status) {
        return Conditions.find(status, RunnerWatch.CONDITION)
                .filter(c -> RunnerProblems.FAILED_CREATE.equals(c.getReason()))
                .map(c -> c.getMessage());
    }

    /** Whether the runner's Deployment holds this spec (at the parallelism it was deployed at). */
    private boolean applied(StreamJobStatus status, StreamJob job, Deployment deployment) {
        return cluster.upToDate(
                RunnerDeployment.desired(
                        job, new TreeMap<>(status.deployedParallelism), status.deployedSavepoint),
                deployment);
    }

    private Duration fail(ReconcileStatus pass, String reason, String message, Duration recheck) {
        StreamJob job = pass.job();
        boolean known =
                Conditions.find(pass.status(), Conditions.DEGRADED)
                        .map(c -> message.equals(c.getMessage()))
                        .orElse(false);
        pass.write(
                status -> {
                    status.phase = JobPhase.Failed;
                    status.observedGeneration = generation(job);
                    Conditions.set(
                            status,
                            Conditions.DEGRADED,
                            true,
                            reason,
                            message,
                            generation(job),
                            clock.instant());
                    Conditions.set(
                            status,
                            Conditions.READY,
                            false,
                            reason,
                            "fix the spec: see the Degraded condition",
                            generation(job),
                            clock.instant());
                });
        if (!known) {
            events.warning(pass.job(), reason, message);
        }
        return recheck;
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
