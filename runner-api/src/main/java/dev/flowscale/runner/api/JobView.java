package dev.flowscale.runner.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code GET /api/v1/job}: what runs, at which parallelism, joined how.
 *
 * @param name job name
 * @param runId changes whenever the job is (re)started, so readers can tell runs apart
 * @param status the engine's job status (RUNNING, RESCALING, RESTARTING, FINISHED, STOPPED, FAILED,
 *     CANCELLED)
 * @param keyGroups the job's number of key groups
 * @param operators operators in topological order
 * @param edges data streams between operators
 * @param checkpoints what the job's snapshots have done; null when the job has no snapshot storage
 */
public record JobView(
        String name,
        String runId,
        String status,
        int keyGroups,
        List<OperatorView> operators,
        List<EdgeView> edges,
        CheckpointStatus checkpoints) {

    /**
     * One operator: stable id, display name, kind (SOURCE, MAP, ...) and current parallelism.
     *
     * @param splits for a source whose useful parallelism its splits bound (a Kafka topic's
     *     partitions), how many it has now; null for other operators, or while the source does not
     *     know
     */
    public record OperatorView(
            String id, String name, String kind, int parallelism, Integer splits) {

        /** An operator that is not bounded by splits. */
        public OperatorView(String id, String name, String kind, int parallelism) {
            this(id, name, kind, parallelism, null);
        }
    }

    /** One edge: upstream and downstream operator ids and the partitioning (FORWARD, HASH, ...). */
    public record EdgeView(String from, String to, String partitioning) {}

    /** Whether the job runs ({@link Readiness#RUNNING}). */
    public boolean running() {
        return Readiness.RUNNING.equals(status);
    }

    /** Parallelism per operator id, in topological order. */
    public Map<String, Integer> parallelism() {
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        operators.forEach(op -> parallelism.put(op.id(), op.parallelism()));
        return parallelism;
    }
}
