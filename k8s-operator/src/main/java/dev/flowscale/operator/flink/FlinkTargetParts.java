package dev.flowscale.operator.flink;

import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.JarResubmission;
import dev.flowscale.flink.SlotBoundPolicy;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The metrics source and realizer of an autoscaler loop whose StreamJob targets a Flink job: its
 * REST API (a FlinkDeployment's {@code <name>-rest} service, or spec.flink.restUrl) for metrics; a
 * FlinkDeployment is scaled through its overrides ({@link FlinkDeploymentRealizer}), shown in the
 * StreamJob's status through {@link FlinkTargetStatus}; a session cluster's job by the executor
 * ({@link FlinkSessionRescales}), to which the loop's realizer hands the target through status.
 */
public final class FlinkTargetParts {
    static final Duration REST_TIMEOUT = Duration.ofSeconds(10);

    /**
     * status.lastRescale.path of a FlinkDeployment's rescale: the Flink Kubernetes operator applies
     * the overrides (an upgrade, or in place where it can).
     */
    static final String DEPLOYMENT_PATH = "flink-deployment-overrides";

    private FlinkTargetParts() {}

    /**
     * What a loop samples and how it carries out a decision. {@code bound} wraps the loop's policy:
     * a Flink job's decisions never ask for more task slots than it may use ({@link
     * FlinkSlotLimits}).
     */
    public record Parts(
            MetricsSource source, ScalingRealizer realizer, UnaryOperator<ScalingPolicy> bound) {

        /** A runner's parts: its policy is not bounded further. */
        public Parts(MetricsSource source, ScalingRealizer realizer) {
            this(source, realizer, UnaryOperator.identity());
        }
    }

    /**
     * @param session the realizer of a session target (spec.flink.restUrl): the loop's, which
     *     records the target in status for the executor ({@link FlinkSessionRescales})
     * @param cached the job as the informer cache holds it: {@code status.flinkJob} names the run a
     *     rescale through a savepoint started
     */
    public static Parts parts(
            StreamJob job,
            FlinkDeployments deployments,
            Runnable reconcile,
            FlinkTargetStatus status,
            ScalingRealizer session,
            Supplier<Optional<StreamJob>> cached,
            ScheduledExecutorService scheduler,
            Duration rescaleTimeout,
            Clock clock) {
        FlinkTarget target = job.getSpec().flink;
        String ns = job.getMetadata().getNamespace();
        URI rest =
                target.deployment == null
                        ? URI.create(target.restUrl.trim())
                        : deployments
                                .get(ns, target.deployment)
                                .map(FlinkDeployments::restUrl)
                                .orElse(
                                        URI.create(
                                                "http://"
                                                        + target.deployment
                                                        + "-rest."
                                                        + ns
                                                        + ":8081"));
        FlinkRestClient client = new FlinkRestClient(rest, REST_TIMEOUT);
        FlinkTargetJob flinkJob =
                new FlinkTargetJob(
                        client,
                        target.job,
                        () -> recordedRun(cached.get(), target),
                        FlinkSlotLimits.of(job, deployments, client));
        MetricsSource source = status.observing(flinkJob.metrics(clock));
        UnaryOperator<ScalingPolicy> bound =
                SlotBoundPolicy.by(flinkJob::slotLimit, flinkJob::checkpointNote);
        if (target.deployment != null) {
            status.loopStarted();
            return new Parts(
                    source,
                    status.reporting(
                            new FlinkDeploymentRealizer(
                                    deployments,
                                    ns,
                                    target.deployment,
                                    flinkJob::read,
                                    reconcile,
                                    scheduler,
                                    rescaleTimeout,
                                    clock),
                            decision -> DEPLOYMENT_PATH),
                    bound);
        }
        return new Parts(source, session, bound);
    }

    /** The run status names for this target, once a rescale through a savepoint started one. */
    private static Optional<String> recordedRun(Optional<StreamJob> job, FlinkTarget target) {
        return job.map(StreamJob::getStatus)
                .filter(
                        s ->
                                target.restUrl != null
                                        && FlinkTargetJob.targetKey(target).equals(s.flinkJobOf))
                .map(s -> s.flinkJob);
    }

    /** spec.flink.jar: how the savepoint path starts the job again; empty: in place only. */
    static Optional<JarResubmission> jar(FlinkTarget target) {
        return Optional.ofNullable(target.jar)
                .map(
                        j ->
                                new JarResubmission(
                                        j.id.trim(),
                                        j.entryClass,
                                        j.args == null ? List.of() : j.args));
    }
}
