package dev.flowscale.engine.checkpoint;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The snapshot a state file belongs to: its job and snapshot id. Every state file starts with it
 * ({@link InstanceStateFile}) and a reader compares it with the manifest that names the file, whose
 * checksum covers both. A CRC-32 proves that a file is whole, not that it is this snapshot's: a
 * file copied in from another snapshot, its CRC and the manifest's checksum recomputed, passes
 * every integrity check but is refused here.
 *
 * @param job the job's name, as the manifest's {@code jobName}
 * @param snapshotId the snapshot's id, as the manifest's {@code checkpointId}
 */
public record SnapshotIdentity(String job, long snapshotId) {

    public SnapshotIdentity {
        if (job == null) {
            throw new IllegalArgumentException("a snapshot identity needs the job's name");
        }
    }

    /** The identity a manifest gives every file it names. */
    static SnapshotIdentity of(SnapshotMetadata metadata) {
        return new SnapshotIdentity(metadata.jobName(), metadata.checkpointId());
    }

    void write(DataOutputStream out) throws IOException {
        out.writeUTF(job);
        out.writeLong(snapshotId);
    }

    static SnapshotIdentity read(DataInputStream in) throws IOException {
        String job = in.readUTF();
        return new SnapshotIdentity(job, in.readLong());
    }

    String describe() {
        return "snapshot " + snapshotId + " of job '" + job + "'";
    }
}
