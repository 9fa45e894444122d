package dev.flowscale.flink;

/**
 * One job vertex (a chain of operators running as one task) as Flink's REST API reports it.
 *
 * @param id Flink's 32-hex-digit vertex id
 * @param operatorId the id flowscale's policy knows it by: its name, made unique within the job
 * @param parallelism subtasks running now
 * @param maxParallelism Flink's max parallelism: the vertex's key groups, an upper bound
 * @param status Flink's execution state of the vertex, e.g. RUNNING
 * @param slotSharingGroup Flink's slot-sharing group id of the vertex ({@code slotSharingGroupId},
 *     reported since Flink 1.20); empty where Flink does not report it
 */
public record FlinkVertex(
        String id,
        String operatorId,
        int parallelism,
        int maxParallelism,
        String status,
        String slotSharingGroup) {

    /** A vertex whose slot-sharing group is not known. */
    public FlinkVertex(
            String id, String operatorId, int parallelism, int maxParallelism, String status) {
        this(id, operatorId, parallelism, maxParallelism, status, "");
    }

    public boolean running() {
        return "RUNNING".equals(status);
    }

    public boolean finished() {
        return "FINISHED".equals(status);
    }
}
