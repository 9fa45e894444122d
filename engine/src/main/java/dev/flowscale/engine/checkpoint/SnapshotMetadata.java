package dev.flowscale.engine.checkpoint;

import java.util.List;

/**
 * The manifest of a checkpoint or savepoint ({@code _metadata}, JSON). A snapshot exists only
 * once its manifest has been written atomically, after every task's file.
 *
 * @param formatVersion  {@link #FORMAT_VERSION}; a reader rejects any other
 * @param type           CHECKPOINT or SAVEPOINT
 * @param operators      every operator of the job with the files of its instances
 */
public record SnapshotMetadata(int formatVersion, String jobName, long checkpointId, String type,
                               long createdAtEpochMillis, int maxParallelism, List<OperatorEntry> operators) {

    public static final int FORMAT_VERSION = 1;
    public static final String FILE_NAME = "_metadata";

    /** One operator: its parallelism when the snapshot was taken and its instances' files. */
    public record OperatorEntry(String id, int parallelism, List<TaskStateHandle> instances) {
    }

    public OperatorEntry operator(String id) {
        return operators.stream().filter(o -> o.id().equals(id)).findFirst().orElse(null);
    }
}
