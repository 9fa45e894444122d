package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.graph.JobGraph;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Chooses what a runner restores on start: the newest complete snapshot in its storage (checkpoint
 * or savepoint) that verifies, or the snapshot it was asked to restore if that is newer; nothing if
 * neither exists. A stored snapshot that fails verification is logged and the next older one is
 * tried, so a half-written or damaged snapshot never blocks recovery; a requested snapshot that
 * cannot be restored (deleted by retention, damaged) gives way to the storage's newest, and is an
 * error only when the storage has none. Storage that holds complete snapshots of which none
 * restores is refused rather than started fresh (a fresh start there would silently drop the state
 * they hold): the caller starts fresh only when asked to ({@value #START_FRESH}).
 *
 * @param restored the state to start from; null for a fresh start
 * @param reason one line saying what was chosen and why, for the log
 */
public record Recovery(RestoredState restored, String reason) {
    /** The command-line flag that starts a job fresh on storage that holds snapshots. */
    public static final String START_FRESH = "--start-fresh";

    /**
     * @param requested the snapshot the caller asked for (e.g. {@code --restore-from}); may be null
     * @param log receives one line per stored snapshot that was skipped, incomplete ones first
     */
    public static Recovery choose(
            CheckpointStorage storage, Path requested, JobGraph graph, Consumer<String> log) {
        for (Path partial : storage.incompleteSnapshots()) {
            log.accept(
                    "skipping incomplete snapshot "
                            + partial
                            + ": it has no "
                            + SnapshotMetadata.FILE_NAME
                            + " (its runner stopped while writing it)");
        }
        Stored latest = latestVerified(storage, graph, log);
        if (requested == null) {
            if (latest == null) {
                refuseIfAnyComplete(storage, graph);
            }
            return latest == null
                    ? new Recovery(
                            null, "no complete snapshot in " + storage.root() + ": starting fresh")
                    : new Recovery(
                            latest.state,
                            "restoring the latest complete snapshot in storage, "
                                    + latest.describe());
        }
        if (latest != null && latest.isAt(requested)) {
            return new Recovery(
                    latest.state,
                    "restoring the requested snapshot, the latest in storage, "
                            + latest.describe());
        }
        try {
            SnapshotMetadata asked = SnapshotReader.metadata(requested);
            String taken = " (taken " + Instant.ofEpochMilli(asked.createdAtEpochMillis()) + ")";
            if (latest != null
                    && latest.metadata.createdAtEpochMillis() >= asked.createdAtEpochMillis()) {
                return new Recovery(
                        latest.state,
                        "restoring "
                                + latest.describe()
                                + " instead of the requested "
                                + requested
                                + taken
                                + ": the storage holds a newer complete snapshot, and a runner always "
                                + "resumes from the newest");
            }
            return new Recovery(
                    SnapshotReader.read(requested, graph, storage.signing()),
                    "restoring the requested snapshot "
                            + requested
                            + taken
                            + ", the newest available");
        } catch (SnapshotException e) {
            if (latest == null) {
                throw e;
            }
            // E.g. a savepoint named in a pod's arguments that retention has since deleted.
            return new Recovery(
                    latest.state,
                    "restoring "
                            + latest.describe()
                            + " instead of the requested "
                            + requested
                            + ", which cannot be restored: "
                            + e.getMessage());
        }
    }

    private static void refuseIfAnyComplete(CheckpointStorage storage, JobGraph graph) {
        int complete = storage.completedSnapshots().size();
        if (complete > 0) {
            throw new SnapshotException(
                    "snapshot storage "
                            + storage.root()
                            + " holds "
                            + complete
                            + " complete snapshot(s) and none restores for job '"
                            + graph.jobName()
                            + "' (each is named above with its reason); pass "
                            + START_FRESH
                            + " to start from nothing (they are kept), or give this job another"
                            + " --savepoint-dir");
        }
    }

    private record Stored(RestoredState state, SnapshotMetadata metadata) {
        boolean isAt(Path dir) {
            return state.path()
                    .toAbsolutePath()
                    .normalize()
                    .equals(dir.toAbsolutePath().normalize());
        }

        String describe() {
            return metadata.type().toLowerCase()
                    + " "
                    + metadata.checkpointId()
                    + " at "
                    + state.path()
                    + " (taken "
                    + Instant.ofEpochMilli(metadata.createdAtEpochMillis())
                    + ")";
        }
    }

    private static Stored latestVerified(
            CheckpointStorage storage, JobGraph graph, Consumer<String> log) {
        for (Path candidate : storage.completedSnapshots()) {
            try {
                SnapshotMetadata metadata = SnapshotReader.metadata(candidate);
                return new Stored(
                        SnapshotReader.read(candidate, graph, storage.signing()), metadata);
            } catch (SnapshotException e) {
                log.accept("skipping snapshot " + candidate + ": " + e.getMessage());
            }
        }
        return null;
    }
}
