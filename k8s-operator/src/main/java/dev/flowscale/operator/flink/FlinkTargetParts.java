package dev.flowscale.operator.flink;

import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.flink.FlinkRescaler;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.JarResubmission;
import dev.flowscale.flink.SlotBoundPolicy;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.api.ScalingRealizer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics source and realizer of an autoscaler loop whose StreamJob targets a Flink job: its
 * REST API (a FlinkDeployment's {@code <name>-rest} service, or spec.flink.restUrl) for metrics; a
 * FlinkDeployment is scaled through its overrides ({@link FlinkDeploymentRealizer}), a session
 * cluster's job by {@link FlinkRescaler}: in place on the adaptive scheduler, else through a
 * savepoint and spec.flink.jar run again from it (without spec.flink.jar, in place only). Both are
 * shown in the StreamJob's status through {@link FlinkTargetStatus}.
 */
public final class FlinkTargetParts {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkTargetParts.class);
    static final Duration REST_TIMEOUT = Duration.ofSeconds(10);

    /**
     * status.lastRescale.path of a FlinkDeployment's rescale: the Flink Kubernetes operator applies
     * the overrides (an upgrade, or in place where it can).
     */
    static final String DEPLOYMENT_PATH = "flink-deployment-overrides";

    private FlinkTargetParts() {}

    /**
     * What a loop samples and how it carries out a decision; closing it stops the realizer. {@code
     * bound} wraps the loop's policy: a Flink job's decisions never ask for more task slots than it
     * may use ({@link FlinkSlotLimits}).
     */
    public record Parts(
            MetricsSource source,
            ScalingRealizer realizer,
            AutoCloseable closer,
            UnaryOperator<ScalingPolicy> bound) {

        /** A runner's parts: its policy is not bounded further. */
        public Parts(MetricsSource source, ScalingRealizer realizer, AutoCloseable closer) {
            this(source, realizer, closer, UnaryOperator.identity());
        }
    }

    public static Parts parts(
            StreamJob job,
            FlinkDeployments deployments,
            Runnable reconcile,
            FlinkTargetStatus status,
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
                        client, target.job, FlinkSlotLimits.of(job, deployments, client));
        status.loopStarted();
        MetricsSource source = status.observing(flinkJob.metrics(clock));
        UnaryOperator<ScalingPolicy> bound =
                SlotBoundPolicy.by(flinkJob::slotLimit, flinkJob::checkpointNote);
        if (target.deployment != null) {
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
                    () -> {},
                    bound);
        }
        LazyRescaler rescaler = new LazyRescaler(flinkJob, jar(target), rescaleTimeout, clock);
        return new Parts(source, status.reporting(rescaler, rescaler::pathOf), rescaler, bound);
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

    /** A {@link FlinkRescaler} made when the first decision comes, once the job was found. */
    private static final class LazyRescaler implements ScalingRealizer, AutoCloseable {
        private final FlinkTargetJob job;
        private final Optional<JarResubmission> jar;
        private final Duration timeout;
        private final Clock clock;
        private FlinkRescaler rescaler;

        LazyRescaler(
                FlinkTargetJob job, Optional<JarResubmission> jar, Duration timeout, Clock clock) {
            this.job = job;
            this.jar = jar;
            this.timeout = timeout;
            this.clock = clock;
        }

        private synchronized FlinkRescaler rescaler() {
            if (rescaler == null) {
                rescaler =
                        new FlinkRescaler(
                                job.ref(), jar, timeout, clock, List.of(LazyRescaler::log));
            }
            return rescaler;
        }

        /** The rescaler's own account (savepoint, rollback) in the log; status has the outcome. */
        private static void log(RescaleReport report) {
            LOG.info("{}", report.summary());
        }

        @Override
        public CompletionStage<Void> realize(ScalingDecision decision) {
            return rescaler().realize(decision);
        }

        @Override
        public String pathOf(ScalingDecision decision) {
            return rescaler().pathOf(decision);
        }

        @Override
        public Optional<Duration> lastInputCost() {
            return rescaler().lastInputCost();
        }

        @Override
        public synchronized void close() {
            if (rescaler != null) {
                rescaler.close();
            }
        }
    }
}
