package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.DurationText;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@link RunnerHealth} of a cluster: watches every runner's pods (an informer, so a change
 * reconciles the job within seconds and reads come from the cache; the Deployment comes from the
 * reconciler's informer) and reports their health in the job's status: condition {@value
 * #CONDITION} with the problem's reason and message ({@link RunnerProblems}), and phase Failed
 * while the runner has one (during a rescale the phase stays Rescaling and the message says the
 * rescale is blocked: the rescale's executor rolls it back on its timeout). Pods are owned by
 * ReplicaSets, not the StreamJob, so they are mapped to their job by the {@value #JOB_ANNOTATION}
 * annotation on the pod template.
 */
public final class RunnerWatch implements RunnerHealth {
    public static final String CONDITION = "RunnerHealthy";
    static final String JOB_ANNOTATION = "flowscale.dev/streamjob";
    static final String RUNNERS = "app.kubernetes.io/managed-by=flowscale-operator";

    /** The operator's default of spec.timeouts.deploy (Helm runnerTimeouts.deploy). */
    public static final String DEPLOY_TIMEOUT_ENV = "FLOWSCALE_DEPLOY_TIMEOUT";

    static final Duration DEPLOY_TIMEOUT = Duration.ofMinutes(5);
    private final Duration defaultDeployTimeout;
    private InformerEventSource<Pod, StreamJob> pods;

    public RunnerWatch(Duration defaultDeployTimeout) {
        this.defaultDeployTimeout = defaultDeployTimeout;
    }

    /** {@value #DEPLOY_TIMEOUT_ENV}'s value, or 5 minutes when it is unset or empty. */
    public static Duration defaultDeployTimeout(String env) {
        return env == null || env.isBlank()
                ? DEPLOY_TIMEOUT
                : DurationText.parse(DEPLOY_TIMEOUT_ENV, env);
    }

    /**
     * The event source on runner pods, in the controller's namespaces; the runner Deployments'
     * informer is the reconciler's, whose cached Deployment {@link #observe} is given.
     */
    @Override
    public List<EventSource<?, StreamJob>> eventSources(EventSourceContext<StreamJob> context) {
        pods =
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(Pod.class, StreamJob.class)
                                .withName("runner-pods")
                                .withLabelSelector(RUNNERS)
                                .withNamespacesInheritedFromController()
                                .withSecondaryToPrimaryMapper(
                                        Mappers.fromAnnotation(
                                                JOB_ANNOTATION, null, StreamJob.class))
                                .build(),
                        context);
        return List.of(pods);
    }

    /**
     * Sets {@value #CONDITION} (and phase Failed on a problem) from the cached Deployment and pods.
     */
    @Override
    public void observe(
            StreamJob job,
            Optional<Deployment> deployment,
            Context<StreamJob> context,
            StreamJobStatus status,
            Instant now) {
        if (pods == null
                || status.phase == JobPhase.Suspended
                || status.phase == JobPhase.Failed
                || status.phase == JobPhase.Finished) {
            return; // not registered (tests without the SDK), nothing runs, the spec itself is
            // wrong, or the job ended
        }
        List<Pod> runnerPods = List.copyOf(pods.getSecondaryResources(job));
        Instant since = status.phase == JobPhase.Deploying ? deployingSince(status, now) : null;
        Optional<RunnerProblems.Problem> problem =
                RunnerProblems.problem(
                        deployment.orElse(null), runnerPods, since, deployTimeout(job), now);
        record(status, problem, job.getMetadata().getGeneration(), now);
    }

    /**
     * Writes the problem (or its absence) into status; during a rescale the phase is left to its
     * executor.
     */
    static void record(
            StreamJobStatus status,
            Optional<RunnerProblems.Problem> problem,
            Long generation,
            Instant now) {
        if (problem.isPresent() && status.phase == JobPhase.Rescaling) {
            // The rescale's executor owns the phase and rolls back on its timeout; status says why
            // it waits.
            Conditions.set(
                    status,
                    CONDITION,
                    false,
                    problem.get().reason(),
                    "the rescale is blocked: " + problem.get().message(),
                    generation,
                    now);
        } else if (problem.isPresent()) {
            status.phase = JobPhase.Failed;
            Conditions.set(
                    status,
                    CONDITION,
                    false,
                    problem.get().reason(),
                    problem.get().message(),
                    generation,
                    now);
        } else {
            Conditions.set(
                    status, CONDITION, true, "NoProblem", "no pod problem seen", generation, now);
        }
    }

    private Duration deployTimeout(StreamJob job) {
        String text = job.getSpec().timeouts == null ? null : job.getSpec().timeouts.deploy;
        return text == null
                ? defaultDeployTimeout
                : DurationText.parse("spec.timeouts.deploy", text);
    }

    /**
     * Since when the runner deploys: Ready turned False, or the operator applied a changed runner
     * Deployment after that (a new deploy after a long-unready pod gets the whole deploy timeout).
     */
    static Instant deployingSince(StreamJobStatus status, Instant now) {
        Instant notReady =
                Conditions.find(status, Conditions.READY)
                        .filter(c -> "False".equals(c.getStatus()))
                        .map(Condition::getLastTransitionTime)
                        .map(Instant::parse)
                        .orElse(now);
        if (status.deployedAt == null) {
            return notReady;
        }
        Instant deployed = Instant.parse(status.deployedAt);
        return deployed.isAfter(notReady) ? deployed : notReady;
    }
}
