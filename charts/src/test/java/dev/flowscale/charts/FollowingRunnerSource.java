package dev.flowscale.charts;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Samples whichever runner runs the job now: a rescale starts a new runner on a new port (in
 * Kubernetes a Service hides that; on one machine this source follows the realizer instead).
 */
final class FollowingRunnerSource implements MetricsSource {
    private final Supplier<URI> runner;
    private final Duration timeout;
    private URI current;
    private RunnerHttpMetricsSource source;

    FollowingRunnerSource(Supplier<URI> runner, Duration timeout) {
        this.runner = runner;
        this.timeout = timeout;
    }

    @Override
    public synchronized MetricsSample sample() {
        URI now = runner.get();
        if (!now.equals(current)) {
            current = now;
            source = new RunnerHttpMetricsSource(now, timeout);
        }
        return source.sample();
    }

    @Override
    public String describe() {
        return "the job runner now at " + runner.get();
    }
}
