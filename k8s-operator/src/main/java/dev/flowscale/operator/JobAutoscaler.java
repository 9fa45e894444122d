package dev.flowscale.operator;

import dev.flowscale.collector.export.ControllerMetrics;
import dev.flowscale.collector.source.RunnerHttpMetricsSource;
import dev.flowscale.collector.window.WindowSettings;
import dev.flowscale.collector.window.WindowedMetricsProvider;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.Autoscaler;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One StreamJob's DS2 loop: the runner's JSON API ({@link RunnerHttpMetricsSource}) feeds a metrics
 * window, {@link Ds2Policy} decides every policy interval, the {@link JobStatusReporter} publishes
 * each decision, and in mode auto the {@link StatusScalingRealizer} records the new parallelism in
 * status for the reconciler to apply; this loop never touches the runner itself.
 */
final class JobAutoscaler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobAutoscaler.class);
    static final Duration RUNNER_TIMEOUT = Duration.ofSeconds(5);
    private final String job;
    private final WindowedMetricsProvider provider;
    private final StatusScalingRealizer realizer;
    private final Autoscaler autoscaler;
    private final ControllerMetrics metrics;

    /**
     * @param job namespace/name, for logs
     * @param runner the runner's API base URI (stable across rescales: the Service)
     * @param realizer records SCALE decisions in status for the reconciler
     */
    JobAutoscaler(
            String job,
            AutoscalerSpec spec,
            URI runner,
            StatusScalingRealizer realizer,
            JobStatusReporter reporter,
            MeterRegistry registry,
            Clock clock) {
        this.job = job;
        Mode mode = spec.mode == AutoscalerMode.AUTO ? Mode.AUTO : Mode.RECOMMEND;
        Duration interval =
                DurationText.parse("spec.autoscaler.policyInterval", spec.policyInterval);
        Duration warmUp = DurationText.parse("spec.autoscaler.warmUp", spec.warmUp);
        ControllerMetrics metrics = new ControllerMetrics(registry, mode, clock, job);
        this.metrics = metrics;
        this.provider =
                new WindowedMetricsProvider(
                        new RunnerHttpMetricsSource(runner, RUNNER_TIMEOUT),
                        new WindowSettings(interval, warmUp),
                        List.of(metrics));
        this.realizer = realizer;
        this.autoscaler =
                new Autoscaler(
                        AutoscalerConfig.of(mode, interval),
                        new Ds2Policy(policy(spec, warmUp), clock),
                        provider,
                        realizer,
                        List.of(metrics, reporter),
                        clock,
                        error ->
                                LOG.warn(
                                        "StreamJob {}: autoscaler error: {}",
                                        job,
                                        error.toString()));
    }

    static PolicyConfig policy(AutoscalerSpec spec, Duration warmUp) {
        return SpecSettings.values(spec).policy().toBuilder().warmUp(warmUp).build();
    }

    /**
     * Samples the runner and decides if the interval has passed; errors are logged, never thrown.
     */
    void tick() {
        try {
            provider.poll();
            autoscaler.tick();
        } catch (RuntimeException e) {
            LOG.warn("StreamJob {}: cannot sample or decide now: {}", job, e.toString());
        }
    }

    boolean rescaling() {
        return realizer.inProgress();
    }

    /**
     * The reconciler finished a rescale: its downtime in this loop's metrics, and the loop may
     * decide again.
     */
    void rescaled(Duration downtime, boolean succeeded) {
        metrics.rescaleFinished(job, downtime, succeeded);
        realizer.finished(succeeded);
    }

    /** A reconcile pass ended with this status: see {@link StatusScalingRealizer#settled}. */
    void settled(StreamJob job) {
        realizer.settled(job);
    }

    @Override
    public void close() {
        realizer.close();
        metrics.forget(job);
    }
}
