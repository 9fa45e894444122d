package dev.flowscale.cli;

import dev.flowscale.collector.export.ControllerMetrics;
import dev.flowscale.collector.source.InProcessMetricsSource;
import dev.flowscale.collector.window.WindowSettings;
import dev.flowscale.collector.window.WindowedMetricsProvider;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.Autoscaler;
import dev.flowscale.reconfig.InProcessScalingRealizer;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A job on the embedded engine with the DS2 autoscaler live: the in-process metrics source, the
 * windowed metrics provider, the DS2 policy, the autoscaler loop and the in-process realizer, wired
 * together. Call {@link #tick()} about once a second.
 */
final class AutoscaledJob implements AutoCloseable {
    private final RunningJob job;
    private final WindowedMetricsProvider provider;
    private final Autoscaler autoscaler;
    private final InProcessScalingRealizer realizer;
    private final List<RunListener> listeners = new CopyOnWriteArrayList<>();
    private final long startNanos = System.nanoTime();

    AutoscaledJob(
            JobGraph graph,
            AutoscalerSettings settings,
            MeterRegistry registry,
            List<RunListener> listeners) {
        this.listeners.addAll(listeners);
        Clock clock = Clock.systemUTC();
        JobConfig config =
                JobConfig.defaults()
                        .withMeterRegistry(registry)
                        .withCheckpointing(
                                settings.checkpointInterval() == null
                                        ? CheckpointConfig.savepointsOnly(settings.storage())
                                        : CheckpointConfig.every(
                                                settings.checkpointInterval(), settings.storage()));
        this.job = RunningJob.start(graph, config);
        ControllerMetrics controller = new ControllerMetrics(registry, settings.mode(), clock);
        this.provider =
                new WindowedMetricsProvider(
                        new InProcessMetricsSource(() -> job, clock),
                        new WindowSettings(settings.window(), settings.warmUp()),
                        List.of(controller));
        this.realizer =
                new InProcessScalingRealizer(
                        job,
                        settings.rescaleTimeout(),
                        settings.emulatedRestart(),
                        clock,
                        List.of(
                                report ->
                                        this.listeners.forEach(
                                                l -> l.onRescale(elapsed(), report))));
        DecisionListener publish =
                decision -> this.listeners.forEach(l -> l.onDecision(elapsed(), decision));
        this.autoscaler =
                new Autoscaler(
                        AutoscalerConfig.of(settings.mode(), settings.policyInterval()),
                        new Ds2Policy(settings.policy(), clock),
                        provider,
                        controller.timed(realizer),
                        List.of(controller, publish),
                        clock,
                        error -> System.err.println("autoscaler: " + error));
    }

    /** Samples the job's counters, lets the autoscaler decide if its interval has passed. */
    Optional<ScalingDecision> tick() {
        JobMetricsSnapshot snapshot = job.metrics();
        listeners.forEach(l -> l.onSample(elapsed(), snapshot));
        provider.poll();
        return autoscaler.tick();
    }

    RunningJob job() {
        return job;
    }

    Autoscaler autoscaler() {
        return autoscaler;
    }

    double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Stops the job with a final savepoint (its state at the end); null if it could not. */
    Path stopWithSavepoint(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (realizer.inProgress() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return job.stopWithSavepoint(timeout);
    }

    @Override
    public void close() throws Exception {
        realizer.close();
        job.close();
    }
}
