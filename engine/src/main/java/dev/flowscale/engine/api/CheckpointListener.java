package dev.flowscale.engine.api;

/**
 * A function that acts once a snapshot is durable: a transactional sink commits there what it
 * prepared when the snapshot's barrier passed it (two-phase commit). Implemented by a {@link
 * ProcessFunction}; called on an engine thread, not the instance's own, after the snapshot's
 * manifest is written. A notification can be missed (the job stopped or failed first), so the
 * function must also finish what a restored snapshot says it prepared.
 */
public interface CheckpointListener {
    /** Snapshot {@code checkpointId} (a checkpoint or a savepoint) is complete. */
    void notifyCheckpointComplete(long checkpointId) throws Exception;
}
