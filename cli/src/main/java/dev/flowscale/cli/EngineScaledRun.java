package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.cli.inprocess.InProcessMetricsSource;
import dev.flowscale.cli.inprocess.InProcessScalingRealizer;
import dev.flowscale.engine.cli.JobStart;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.loop.AutoscalerLoop;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A job on the embedded engine with the DS2 autoscaler live: the one {@link JobAutoscaler} assembly
 * on the in-process metrics source, realizing decisions with the in-process realizer. Call {@link
 * #tick()} about once a second.
 */
final class EngineScaledRun implements ScaledRun {
    private final RunningJob job;
    private final JobAutoscaler autoscaler;
    private final InProcessScalingRealizer realizer;
    private final List<RunListener> listeners = new CopyOnWriteArrayList<>();
    private final long startNanos = System.nanoTime();
    private final Map<String, Integer> initial;

    EngineScaledRun(
            JobGraph graph,
            RunSettings settings,
            MeterRegistry registry,
            List<RunListener> listeners) {
        this.listeners.addAll(listeners);
        this.initial = graph.parallelism();
        Clock clock = Clock.systemUTC();
        JobConfig config =
                JobConfig.defaults()
                        .withMeterRegistry(registry)
                        .withCheckpointing(checkpointing(settings));
        this.job =
                JobStart.start(graph, config, settings.startFresh(), null, settings.restoreLog());
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
        this.autoscaler =
                ScaledRun.autoscaler(
                        settings.autoscaler(),
                        new InProcessMetricsSource(() -> job, clock),
                        realizer,
                        registry,
                        this.listeners,
                        this::elapsed);
    }

    /** Samples the job's counters, lets the autoscaler decide if its interval has passed. */
    @Override
    public Optional<ScalingDecision> tick() {
        JobMetricsSnapshot snapshot = job.metrics();
        listeners.forEach(l -> l.onSample(elapsed(), snapshot));
        return autoscaler.tick();
    }

    RunningJob job() {
        return job;
    }

    AutoscalerLoop autoscaler() {
        return autoscaler.loop();
    }

    @Override
    public Map<String, Integer> initialParallelism() {
        return initial;
    }

    @Override
    public Map<String, Integer> parallelism() {
        return job.graph().parallelism();
    }

    @Override
    public boolean ended() throws InterruptedException {
        return job.await(Duration.ZERO);
    }

    @Override
    public double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public boolean rescaling() {
        return realizer.inProgress();
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

    private static CheckpointConfig checkpointing(RunSettings settings) {
        if (settings.checkpointInterval() == null) {
            return CheckpointConfig.savepointsOnly(settings.storage())
                    .withSigning(settings.signing());
        }
        CheckpointConfig every =
                CheckpointConfig.every(settings.checkpointInterval(), settings.storage())
                        .withSigning(settings.signing());
        return settings.checkpointTolerance() == null
                ? every
                : every.withFailureTolerance(settings.checkpointTolerance());
    }
}
