package dev.flowscale.engine.runner;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointStatus;
import dev.flowscale.engine.runtime.RunningJob;
import java.util.List;

/**
 * The body of {@code GET /api/v1/job}: what runs, at which parallelism, joined how.
 *
 * @param name           job name
 * @param runId          changes whenever the job is (re)started, so readers can tell runs apart
 * @param status         the engine's RunningJob.Status (RUNNING, RESCALING, FINISHED, ...)
 * @param maxParallelism the job's number of key groups
 * @param operators      operators in topological order
 * @param edges          data streams between operators
 * @param checkpoints    what the job's snapshots have done (last completed, failures in a row,
 *                       last failure); null when the job has no snapshot storage
 */
public record JobView(String name, String runId, String status, int maxParallelism,
                      List<OperatorView> operators, List<EdgeView> edges, CheckpointStatus checkpoints) {

    /** One operator: stable id, display name, kind (SOURCE, MAP, ...) and current parallelism. */
    public record OperatorView(String id, String name, String kind, int parallelism) {
    }

    /** One edge: upstream and downstream operator ids and the partitioning (FORWARD, HASH, ...). */
    public record EdgeView(String from, String to, String partitioning) {
    }

    public static JobView of(RunningJob job, String runId) {
        JobGraph graph = job.graph();
        List<OperatorView> operators = graph.topologicalOrder().stream().map(graph::operator)
                .map(op -> new OperatorView(op.id(), op.name(), op.kind().name(), op.parallelism())).toList();
        List<EdgeView> edges = graph.edges().stream()
                .map(e -> new EdgeView(e.from(), e.to(), e.partitioning().name())).toList();
        return new JobView(graph.jobName(), runId, job.status().name(), graph.maxParallelism(), operators, edges,
                job.checkpointStatus());
    }
}
