package dev.flowscale.flink;

/**
 * One job vertex (a chain of operators running as one task) as Flink's REST API reports it.
 *
 * @param id Flink's 32-hex-digit vertex id
 * @param operatorId the id flowscale's policy knows it by: its name, made unique within the job
 * @param parallelism subtasks running now
 * @param maxParallelism Flink's max parallelism: the vertex's key groups, an upper bound
 * @param status Flink's execution state of the vertex, e.g. RUNNING
 */
public record FlinkVertex(
        String id, String operatorId, int parallelism, int maxParallelism, String status) {

    public boolean running() {
        return "RUNNING".equals(status);
    }

    public boolean finished() {
        return "FINISHED".equals(status);
    }
}
