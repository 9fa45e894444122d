package dev.flowscale.cli.inprocess;

import dev.flowscale.autoscaler.metrics.CollectorException;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import dev.flowscale.autoscaler.metrics.RunnerModel;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runner.RunnerViews;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.MetricsView;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Samples a job running in this JVM. The job comes from a supplier because a rescale may replace
 * the {@link RunningJob}. The run id joins a random id per job object with the engine's id of the
 * current execution, so it changes on a new job, a restart after a failure and a rescale. The job
 * and its counters are read as the runner API's bodies would show them, so this source and {@link
 * RunnerHttpMetricsSource} translate them in one place. While the job restarts or rescales,
 * sampling fails: there are no counters of a running job to read.
 */
public final class InProcessMetricsSource implements MetricsSource {
    private static final Set<RunningJob.Status> MEASURABLE =
            EnumSet.of(
                    RunningJob.Status.RUNNING,
                    RunningJob.Status.FINISHED,
                    RunningJob.Status.STOPPED);
    private final Supplier<RunningJob> job;
    private final Clock clock;
    private RunningJob lastJob;
    private String jobId;

    public InProcessMetricsSource(Supplier<RunningJob> job, Clock clock) {
        this.job = Objects.requireNonNull(job, "in-process metrics source: job supplier");
        this.clock = Objects.requireNonNull(clock, "in-process metrics source: clock");
    }

    @Override
    public synchronized MetricsSample sample() {
        RunningJob current = job.get();
        if (current == null) {
            throw new CollectorException(
                    "in-process metrics source: no job is running; start the job first");
        }
        RunningJob.Status status = current.status();
        if (!MEASURABLE.contains(status)) {
            throw new CollectorException(
                    "in-process metrics source: job '"
                            + current.name()
                            + "' is "
                            + status
                            + "; its counters do not describe a running job until it runs again");
        }
        if (current != lastJob) {
            lastJob = current;
            jobId = UUID.randomUUID().toString();
        }
        JobMetricsSnapshot snapshot = current.metrics();
        String runId = jobId + "/" + snapshot.runId();
        MetricsView counters = RunnerViews.metrics(snapshot, runId, clock.millis());
        return new MetricsSample(
                RunnerModel.topology(RunnerViews.job(current, runId))
                        .withParallelism(counters.parallelism()),
                clock.instant(),
                runId,
                counters.instances());
    }

    @Override
    public String describe() {
        RunningJob current = job.get();
        return "in-process job" + (current == null ? "" : " '" + current.name() + "'");
    }
}
