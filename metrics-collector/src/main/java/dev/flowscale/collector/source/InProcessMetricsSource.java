package dev.flowscale.collector.source;

import dev.flowscale.collector.CollectorException;
import dev.flowscale.collector.api.MetricsSample;
import dev.flowscale.collector.api.MetricsSource;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.RunningJob;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Samples a job running in this JVM. The job comes from a supplier because a rescale replaces
 * the {@link RunningJob}; every new job object starts a new run id.
 */
public final class InProcessMetricsSource implements MetricsSource {
    private final Supplier<RunningJob> job;
    private final Clock clock;
    private RunningJob lastJob;
    private String runId;

    public InProcessMetricsSource(Supplier<RunningJob> job, Clock clock) {
        this.job = Objects.requireNonNull(job, "in-process metrics source: job supplier");
        this.clock = Objects.requireNonNull(clock, "in-process metrics source: clock");
    }

    @Override
    public synchronized MetricsSample sample() {
        RunningJob current = job.get();
        if (current == null) {
            throw new CollectorException("in-process metrics source: no job is running; start the job first");
        }
        RunningJob.Status status = current.status();
        if (status == RunningJob.Status.FAILED || status == RunningJob.Status.CANCELLED) {
            throw new CollectorException("in-process metrics source: job '" + current.name() + "' is " + status
                    + "; its counters no longer describe a running job");
        }
        if (current != lastJob) {
            lastJob = current;
            runId = UUID.randomUUID().toString();
        }
        JobMetricsSnapshot snapshot = current.metrics();
        return new MetricsSample(EngineModel.topology(current.graph()), clock.instant(), runId,
                EngineModel.counters(snapshot.instances()));
    }

    @Override
    public String describe() {
        RunningJob current = job.get();
        return "in-process job" + (current == null ? "" : " '" + current.name() + "'");
    }
}
