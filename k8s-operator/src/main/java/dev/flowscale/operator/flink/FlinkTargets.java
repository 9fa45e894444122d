package dev.flowscale.operator.flink;

import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ReconcileStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The reconciler's pass for a StreamJob that targets an Apache Flink job (spec.flink) instead of a
 * runner: nothing is deployed; a FlinkDeployment target is checked to exist and to have the Flink
 * Kubernetes operator's own autoscaler off (else phase Failed with a Degraded condition and a
 * Warning Event, and no loop runs, so nothing is written), and its job state sets Ready. Rechecked
 * every {@link #RECHECK}: a FlinkDeployment is read with get, not watched. A session cluster's job
 * (spec.flink.restUrl) is rescaled here, one step a pass ({@link FlinkSessionRescales}).
 */
public final class FlinkTargets {
    static final Duration RECHECK = Duration.ofSeconds(30);
    private final FlinkDeployments deployments;
    private final FlinkSessionRescales sessions;
    private final JobEvents events;
    private final Clock clock;

    /** How a pass that cannot go on ends (the reconciler's own spec failure). */
    public interface Failure {
        Duration fail(ReconcileStatus pass, String reason, String message, Duration recheck);
    }

    public FlinkTargets(
            FlinkDeployments deployments,
            FlinkSessionRescales sessions,
            JobEvents events,
            Clock clock) {
        this.deployments = Objects.requireNonNull(deployments, "deployments");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Duration apply(ReconcileStatus pass, Failure failure) {
        StreamJob job = pass.job();
        FlinkTarget target = job.getSpec().flink;
        if (target.deployment == null) {
            Optional<Duration> step = sessions.step(pass);
            observed(pass, true, "scaling Flink job " + which(target) + " at " + target.restUrl);
            return step.orElse(RECHECK);
        }
        Optional<GenericKubernetesResource> deployment =
                deployments.get(job.getMetadata().getNamespace(), target.deployment);
        if (deployment.isEmpty()) {
            return failure.fail(pass, JobEvents.FLINK_DEPLOYMENT_MISSING, missing(job), RECHECK);
        }
        if (FlinkDeployments.autoscalerEnabled(deployment.get())) {
            return failure.fail(
                    pass, JobEvents.FLINK_AUTOSCALER_ENABLED, autoscalerOn(job), RECHECK);
        }
        String state = FlinkDeployments.jobState(deployment.get()).orElse("not reported yet");
        observed(
                pass,
                "RUNNING".equals(state),
                "FlinkDeployment " + target.deployment + "'s job is " + state);
        return RECHECK;
    }

    private void observed(ReconcileStatus pass, boolean ready, String message) {
        StreamJob job = pass.job();
        Long generation = job.getMetadata().getGeneration();
        boolean newSpec = !Objects.equals(pass.status().observedGeneration, generation);
        pass.write(
                status -> {
                    status.phase =
                            job.getSpec().suspend
                                    ? JobPhase.Suspended
                                    : status.pending != null
                                            ? JobPhase.Rescaling
                                            : ready ? JobPhase.Running : JobPhase.Deploying;
                    status.observedGeneration = generation;
                    Conditions.set(
                            status,
                            Conditions.READY,
                            ready,
                            ready ? "FlinkJobRunning" : "FlinkJobNotRunning",
                            message,
                            generation,
                            clock.instant());
                    Conditions.specValid(status, generation, clock.instant());
                });
        if (newSpec) {
            events.normal(job, JobEvents.DEPLOYED, message + " (generation " + generation + ")");
        }
    }

    static String which(FlinkTarget target) {
        return target.job == null ? "(the only running one)" : "'" + target.job + "'";
    }

    private static String missing(StreamJob job) {
        return "StreamJob "
                + key(job)
                + ": FlinkDeployment '"
                + job.getSpec().flink.deployment
                + "' (spec.flink.deployment) does not exist in namespace "
                + job.getMetadata().getNamespace()
                + ": create it or correct the name";
    }

    static String autoscalerOn(StreamJob job) {
        return "StreamJob "
                + key(job)
                + ": FlinkDeployment '"
                + job.getSpec().flink.deployment
                + "' has the Flink Kubernetes operator's own autoscaler on"
                + " (spec.flinkConfiguration job.autoscaler.enabled: \"true\"); two autoscalers would"
                + " fight over its parallelism, so flowscale writes nothing: set it to \"false\", or"
                + " remove spec.flink from this StreamJob";
    }

    private static String key(StreamJob job) {
        return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }
}
