package dev.flowscale.engine.runner;

import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.CgroupCpu;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.MetricsView;
import java.util.List;
import java.util.OptionalInt;

/**
 * The engine's job and counters as the runner API's bodies ({@link JobView}, {@link MetricsView}).
 */
public final class RunnerViews {
    private RunnerViews() {}

    /**
     * The body of {@code GET /api/v1/job}: operators in topological order, edges, status,
     * checkpoints.
     */
    public static JobView job(RunningJob job, String runId) {
        JobGraph graph = job.graph();
        List<JobView.OperatorView> operators =
                graph.topologicalOrder().stream()
                        .map(graph::operator)
                        .map(
                                op ->
                                        new JobView.OperatorView(
                                                op.id(),
                                                op.name(),
                                                op.kind().name(),
                                                op.parallelism(),
                                                splits(op.function())))
                        .toList();
        List<JobView.EdgeView> edges =
                graph.edges().stream()
                        .map(e -> new JobView.EdgeView(e.from(), e.to(), e.partitioning().name()))
                        .toList();
        return new JobView(
                graph.jobName(),
                runId,
                job.status().name(),
                graph.keyGroups(),
                operators,
                edges,
                job.checkpointStatus());
    }

    /** A source's split count where its splits bound its parallelism; null otherwise. */
    private static Integer splits(Object function) {
        if (function instanceof SourceFunction<?> source) {
            OptionalInt splits = source.splitCount();
            return splits.isPresent() ? splits.getAsInt() : null;
        }
        return null;
    }

    /**
     * The body of {@code GET /api/v1/metrics}: the snapshot's counters, stamped {@code timeMillis}.
     */
    public static MetricsView metrics(JobMetricsSnapshot snapshot, String runId, long timeMillis) {
        return new MetricsView(
                snapshot.jobName(),
                runId,
                timeMillis,
                snapshot.parallelism(),
                snapshot.instances(),
                CgroupCpu.read(CgroupCpu.DEFAULT).orElse(null));
    }
}
