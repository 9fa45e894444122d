package dev.flowscale.operator;

import dev.flowscale.collector.export.ControllerMetrics;
import dev.flowscale.collector.source.RunnerHttpMetricsSource;
import dev.flowscale.collector.window.WindowSettings;
import dev.flowscale.collector.window.WindowedMetricsProvider;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.Autoscaler;
import dev.flowscale.reconfig.HttpRunnerScalingRealizer;
import dev.flowscale.reconfig.RescaleListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One StreamJob's DS2 loop: the runner's JSON API ({@link RunnerHttpMetricsSource}) feeds a
 * metrics window, {@link Ds2Policy} decides every policy interval, the {@link JobStatusReporter}
 * publishes each decision, and in mode auto the reconfigurator's {@link HttpRunnerScalingRealizer}
 * with a {@link KubernetesRunnerLauncher} rescales through a savepoint (rolling back on timeout).
 */
final class JobAutoscaler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobAutoscaler.class);
    static final Duration RUNNER_TIMEOUT = Duration.ofSeconds(5);
    private final String job;
    private final WindowedMetricsProvider provider;
    private final HttpRunnerScalingRealizer realizer;
    private final Autoscaler autoscaler;
    private final ControllerMetrics metrics;

    /**
     * @param job      namespace/name, for logs
     * @param runner   the runner's API base URI (stable across rescales: the Service)
     * @param rescaleTimeout longest wait for a savepoint and for the new runner to run
     */
    JobAutoscaler(String job, AutoscalerSpec spec, URI runner, KubernetesRunnerLauncher launcher,
                  JobStatusReporter reporter, MeterRegistry registry, Duration rescaleTimeout, Clock clock) {
        this.job = job;
        Mode mode = spec.mode == AutoscalerMode.AUTO ? Mode.AUTO : Mode.RECOMMEND;
        Duration interval = DurationText.parse("spec.autoscaler.policyInterval", spec.policyInterval);
        Duration warmUp = DurationText.parse("spec.autoscaler.warmUp", spec.warmUp);
        ControllerMetrics metrics = new ControllerMetrics(registry, mode, clock, job);
        this.metrics = metrics;
        this.provider = new WindowedMetricsProvider(new RunnerHttpMetricsSource(runner, RUNNER_TIMEOUT),
                new WindowSettings(interval, warmUp), List.of(metrics));
        RescaleListener timing = report -> metrics.rescaleFinished(report.job(), report.downtime(), report.succeeded());
        this.realizer = new HttpRunnerScalingRealizer(runner, launcher, rescaleTimeout, clock,
                List.of(reporter, timing));
        this.autoscaler = new Autoscaler(AutoscalerConfig.of(mode, interval), new Ds2Policy(policy(spec, warmUp),
                clock), provider, realizer, List.of(metrics, reporter), clock,
                error -> LOG.warn("StreamJob {}: autoscaler error: {}", job, error.toString()));
    }

    static PolicyConfig policy(AutoscalerSpec spec, Duration warmUp) {
        return SpecSettings.values(spec).policy().toBuilder().warmUp(warmUp).build();
    }

    /** Samples the runner and decides if the interval has passed; errors are logged, never thrown. */
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

    @Override
    public void close() throws InterruptedException {
        realizer.close();
        metrics.forget(job);
    }
}
