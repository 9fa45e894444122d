package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.StateCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Snapshot directories on a local (or mounted) file system:
 * <pre>
 * ROOT/checkpoints/chk-ID/                 periodic checkpoints; the newest N are retained
 * ROOT/savepoints/savepoint-ID-EPOCHMS/    savepoints; never deleted by flowscale
 *     _metadata                            the manifest (JSON), written last and atomically
 *     OPERATOR-INSTANCE.state              one file per task (see InstanceStateFile)
 * </pre>
 * A directory without {@code _metadata} is an incomplete snapshot and is never restored.
 */
public final class CheckpointStorage {
    private final Path checkpoints;
    private final Path savepoints;

    public CheckpointStorage(Path root) {
        this.checkpoints = root.resolve("checkpoints");
        this.savepoints = root.resolve("savepoints");
    }

    /** Creates the directory for snapshot {@code id}. */
    public Path create(long id, boolean savepoint) {
        Path dir = savepoint ? savepoints.resolve("savepoint-" + id + "-" + System.currentTimeMillis())
                : checkpoints.resolve("chk-" + id);
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new SnapshotException("cannot create snapshot directory " + dir + ": " + e.getMessage()
                    + "; check that the storage path is writable", e);
        }
    }

    /** Writes the manifest atomically (temporary file, fsync, rename, fsync of the directory). */
    public static void writeMetadata(Path dir, SnapshotMetadata metadata) {
        Path tmp = dir.resolve(SnapshotMetadata.FILE_NAME + ".tmp");
        Path target = dir.resolve(SnapshotMetadata.FILE_NAME);
        try {
            Files.write(tmp, StateCodec.json().writerWithDefaultPrettyPrinter().writeValueAsBytes(metadata));
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                throw new SnapshotException("the file system of " + dir + " cannot rename atomically; use a local "
                        + "disk or a volume that supports atomic rename", e);
            }
            fsyncDirectory(dir);
        } catch (IOException e) {
            throw new SnapshotException("cannot write the manifest of " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void fsyncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a directory for sync; the rename is still atomic.
        }
    }

    /** The newest checkpoint with a manifest. */
    public Optional<Path> latestCheckpoint() {
        return completed(checkpoints).max(Comparator.comparingLong(CheckpointStorage::idOf));
    }

    /** The highest snapshot id used so far, complete or not (ids are never reused). */
    public long highestId() {
        return Stream.concat(list(checkpoints), list(savepoints)).mapToLong(CheckpointStorage::idOf).max().orElse(0);
    }

    /** Keeps the newest {@code retained} complete checkpoints; deletes older ones and failed ones before {@code latestId}. */
    public void retain(int retained, long latestId) {
        completed(checkpoints).sorted(Comparator.comparingLong(CheckpointStorage::idOf).reversed())
                .skip(Math.max(1, retained)).forEach(CheckpointStorage::discard);
        list(checkpoints).filter(dir -> !Files.exists(dir.resolve(SnapshotMetadata.FILE_NAME)) && idOf(dir) < latestId)
                .forEach(CheckpointStorage::discard);
    }

    public static void discard(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: an incomplete directory that stays behind is never restored.
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

    static long idOf(Path dir) {
        String[] parts = dir.getFileName().toString().split("-");
        try {
            return Long.parseLong(parts[1]);
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
