package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The manifest of a checkpoint or savepoint ({@code _metadata}, JSON). A snapshot exists only once
 * its manifest has been written atomically, after every task's file. The manifest verifies itself:
 * {@code checksum} is the SHA-256 of the manifest's compact JSON without that field, and every file
 * it names carries its length and CRC-32 (see {@link ManifestFile}).
 *
 * @param formatVersion {@link #FORMAT_VERSION} when written; read from {@link
 *     #OLDEST_FORMAT_VERSION} on
 * @param type CHECKPOINT or SAVEPOINT
 * @param keyGroups the job's number of key groups; on disk it keeps its format-2 name {@value
 *     #KEY_GROUPS_FIELD} (the engine's old word for the key-group count), so every savepoint
 *     written before the rename still restores
 * @param epoch the storage epoch of the runner that committed it (see {@link StorageOwner})
 * @param operators every operator of the job with the files of its instances
 * @param checksum SHA-256 (hex) of the manifest without this field; null while it is computed
 * @param signature HMAC-SHA256 (hex) of the manifest and its files with the deployment key ({@link
 *     SnapshotSigning}); null when written without a key (and left out of the JSON)
 */
public record SnapshotMetadata(
        int formatVersion,
        String jobName,
        long checkpointId,
        String type,
        long createdAtEpochMillis,
        @JsonProperty(KEY_GROUPS_FIELD) int keyGroups,
        long epoch,
        List<OperatorEntry> operators,
        @JsonInclude(JsonInclude.Include.NON_NULL) String checksum,
        @JsonInclude(JsonInclude.Include.NON_NULL) String signature) {

    /**
     * Version 2 added the manifest checksum, the writer's epoch and each file's split count;
     * version 3 the identity at the head of every state file ({@link SnapshotIdentity}).
     */
    public static final int FORMAT_VERSION = 3;

    /** The oldest version read: its state files carry no identity, and are read without one. */
    public static final int OLDEST_FORMAT_VERSION = 2;

    public static final String FILE_NAME = "_metadata";

    /**
     * The manifest's field for {@link #keyGroups()}. It is the key-group count, not a bound on
     * parallelism; renaming it would need a new format version, as old manifests must still read.
     */
    public static final String KEY_GROUPS_FIELD = "maxParallelism";

    /** One operator: its parallelism when the snapshot was taken and its instances' files. */
    public record OperatorEntry(String id, int parallelism, List<TaskStateHandle> instances) {}

    public OperatorEntry operator(String id) {
        return operators.stream().filter(o -> o.id().equals(id)).findFirst().orElse(null);
    }

    /** Whether this manifest's state files start with their {@link SnapshotIdentity}. */
    boolean filesCarryIdentity() {
        return formatVersion >= 3;
    }

    public boolean savepoint() {
        return "SAVEPOINT".equals(type);
    }

    SnapshotMetadata withChecksum(String sum) {
        return sealed(sum, signature);
    }

    SnapshotMetadata withSignature(String hmac) {
        return sealed(checksum, hmac);
    }

    private SnapshotMetadata sealed(String sum, String hmac) {
        return new SnapshotMetadata(
                formatVersion,
                jobName,
                checkpointId,
                type,
                createdAtEpochMillis,
                keyGroups,
                epoch,
                operators,
                sum,
                hmac);
    }
}
