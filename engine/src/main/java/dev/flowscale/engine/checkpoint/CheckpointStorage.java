package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.RocksDbFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Snapshot directories on a local (or mounted) file system:
 *
 * <pre>
 * ROOT/_owner.lock, ROOT/_epoch            ownership and fencing (see StorageOwner)
 * ROOT/checkpoints/chk-ID/                 periodic checkpoints
 * ROOT/savepoints/savepoint-ID-EPOCHMS/    savepoints
 *     _metadata                            the manifest (JSON), written last and atomically
 *     OPERATOR-INSTANCE.state              one file per task (see InstanceStateFile)
 *     OPERATOR-INSTANCE-NAME               a RocksDB instance's descriptor files (incremental)
 * ROOT/shared/STORE-NNNNNN.sst             SST files of incremental checkpoints, shared by them
 * </pre>
 *
 * Ids are shared by checkpoints and savepoints and never reused, so the highest id is the newest
 * snapshot. A directory without {@code _metadata} is an incomplete snapshot and is never restored.
 * Retention keeps the newest N complete checkpoints and the newest N complete savepoints, then
 * deletes every shared file that no remaining complete snapshot's manifest references.
 */
public final class CheckpointStorage {
    static final String SHARED = "shared";
    private final Path root;
    private final Path checkpoints;
    private final Path savepoints;

    /**
     * The lowest id this object may have written: snapshots with lower ids were in the folder when
     * it was made (a runner makes one per run), written by earlier runs, and retention never
     * deletes them.
     */
    private final long firstOwnId;

    private final SnapshotSigning signing;

    public CheckpointStorage(Path root) {
        this(root, SnapshotSigning.NONE);
    }

    /** Storage whose snapshots are signed and checked with {@code signing}. */
    public CheckpointStorage(Path root, SnapshotSigning signing) {
        this.root = root;
        this.signing = signing;
        this.checkpoints = root.resolve("checkpoints");
        this.savepoints = root.resolve("savepoints");
        this.firstOwnId = highestId() + 1;
    }

    public Path root() {
        return root;
    }

    /** How this storage's snapshots are signed when written and checked when restored. */
    public SnapshotSigning signing() {
        return signing;
    }

    /**
     * Checks that both snapshot folders can be created and written, by writing and deleting a probe
     * file in each, so that unwritable storage is an error at start, not at the first snapshot.
     */
    public void checkWritable() {
        for (Path dir : List.of(checkpoints, savepoints)) {
            try {
                Files.createDirectories(dir);
                Path probe = Files.createTempFile(dir, ".probe-", ".tmp");
                Files.delete(probe);
            } catch (IOException e) {
                throw new SnapshotException(
                        "snapshot storage "
                                + dir
                                + " cannot be written ("
                                + e
                                + "); give "
                                + "--savepoint-dir a folder this process may create and write",
                        e);
            }
        }
    }

    /** Creates the directory for snapshot {@code id}. */
    public Path create(long id, boolean savepoint) {
        Path dir =
                savepoint
                        ? savepoints.resolve("savepoint-" + id + "-" + System.currentTimeMillis())
                        : checkpoints.resolve("chk-" + id);
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new SnapshotException(
                    "cannot create snapshot directory "
                            + dir
                            + ": "
                            + e
                            + "; check that the storage path is writable",
                    e);
        }
    }

    /** The newest checkpoint with a manifest. */
    public Optional<Path> latestCheckpoint() {
        return completed(checkpoints).max(Comparator.comparingLong(CheckpointStorage::idOf));
    }

    /** Every checkpoint and savepoint with a manifest, newest (highest id) first. */
    public List<Path> completedSnapshots() {
        return Stream.concat(completed(checkpoints), completed(savepoints))
                .sorted(Comparator.comparingLong(CheckpointStorage::idOf).reversed())
                .toList();
    }

    /**
     * Every checkpoint and savepoint directory without a manifest, newest first: left by a runner
     * that stopped while writing it, or by a deletion cut short. Never restored.
     */
    public List<Path> incompleteSnapshots() {
        return Stream.concat(list(checkpoints), list(savepoints))
                .filter(dir -> !Files.exists(dir.resolve(SnapshotMetadata.FILE_NAME)))
                .sorted(Comparator.comparingLong(CheckpointStorage::idOf).reversed())
                .toList();
    }

    /** The highest snapshot id used so far, complete or not (ids are never reused). */
    public long highestId() {
        return Stream.concat(list(checkpoints), list(savepoints))
                .mapToLong(CheckpointStorage::idOf)
                .max()
                .orElse(0);
    }

    /**
     * Keeps the newest {@code retained} complete checkpoints and savepoints this run wrote; deletes
     * its older ones and incomplete ones older than {@code latestId} (never restored: not
     * snapshots), never a directory in {@code pinned} (the snapshot the job restored from, or one
     * still being written), nor a complete snapshot of an earlier run.
     */
    public void retain(int retained, long latestId, Set<Path> pinned) {
        for (Path parent : List.of(checkpoints, savepoints)) {
            completed(parent)
                    .filter(dir -> idOf(dir) >= firstOwnId)
                    .sorted(Comparator.comparingLong(CheckpointStorage::idOf).reversed())
                    .skip(Math.max(1, retained))
                    .filter(dir -> !isPinned(dir, pinned))
                    .forEach(CheckpointStorage::discard);
            list(parent)
                    .filter(
                            dir ->
                                    !Files.exists(dir.resolve(SnapshotMetadata.FILE_NAME))
                                            && idOf(dir) < latestId)
                    .filter(dir -> !isPinned(dir, pinned))
                    .forEach(CheckpointStorage::discard);
        }
        deleteUnreferencedSharedFiles();
    }

    /**
     * Deletes the shared files that no complete snapshot references. The references are derived
     * from the manifests themselves rather than counted separately, so no count can drift from what
     * storage holds; if any manifest cannot be read, nothing is deleted. Runs only while no
     * snapshot is being written (the coordinator has one pending at most and calls this after
     * committing it), so a file a checkpoint is about to reference is never deleted.
     */
    private void deleteUnreferencedSharedFiles() {
        Path shared = root.resolve(SHARED);
        if (!Files.isDirectory(shared)) {
            return;
        }
        Set<String> referenced = new HashSet<>();
        for (Path dir : completedSnapshots()) {
            try {
                referenced.addAll(sharedFiles(ManifestFile.read(dir)));
            } catch (SnapshotException e) {
                return;
            }
        }
        try (Stream<Path> files = Files.list(shared)) {
            files.filter(f -> !referenced.contains(f.getFileName().toString()))
                    .forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // Best effort: an unreferenced file left behind is deleted by the next retention.
        }
    }

    /** The names of the shared files {@code metadata} references. */
    public static Set<String> sharedFiles(SnapshotMetadata metadata) {
        Set<String> names = new HashSet<>();
        for (SnapshotMetadata.OperatorEntry operator : metadata.operators()) {
            for (TaskStateHandle handle : operator.instances()) {
                if (handle.rocksDb() != null) {
                    handle.rocksDb().files().stream()
                            .filter(RocksDbFile::shared)
                            .forEach(f -> names.add(f.file()));
                }
            }
        }
        return names;
    }

    /** The shared folder of the storage that snapshot folder {@code snapshotDir} belongs to. */
    public static Path sharedDirOf(Path snapshotDir) {
        return snapshotDir.toAbsolutePath().getParent().getParent().resolve(SHARED);
    }

    private static boolean isPinned(Path dir, Set<Path> pinned) {
        Path normal = dir.toAbsolutePath().normalize();
        return pinned.stream()
                .anyMatch(p -> p != null && p.toAbsolutePath().normalize().equals(normal));
    }

    /**
     * Deletes a snapshot directory, its manifest first: a deletion cut short leaves an incomplete
     * snapshot, which is never restored, rather than a complete-looking one with files missing.
     */
    public static void discard(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(SnapshotMetadata.FILE_NAME));
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        } catch (IOException | UncheckedIOException e) {
            // Best effort: an incomplete directory that stays behind is never restored. The walk
            // fails if a file vanishes under it: an upload still running renames its temporary
            // files into the directory of a checkpoint being discarded.
        }
    }

    private static Stream<Path> completed(Path parent) {
        return list(parent).filter(dir -> Files.exists(dir.resolve(SnapshotMetadata.FILE_NAME)));
    }

    private static Stream<Path> list(Path parent) {
        if (!Files.isDirectory(parent)) {
            return Stream.empty();
        }
        try (Stream<Path> children = Files.list(parent)) {
            return children.filter(Files::isDirectory).toList().stream();
        } catch (IOException e) {
            return Stream.empty();
        }
    }

    /** The id in a snapshot directory's name (chk-ID or savepoint-ID-TIME); -1 if it has none. */
    public static long idOf(Path dir) {
        String[] parts = dir.getFileName().toString().split("-");
        try {
            return Long.parseLong(parts[1]);
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
