package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.StateCodec;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/**
 * Exclusive ownership of a snapshot folder by one runner, in two layers:
 *
 * <ul>
 *   <li>a lock: {@code _owner.lock} held with {@link FileChannel#tryLock()} for the runner's life.
 *       The operating system drops it when the process dies (even by {@code kill -9}), so a dead
 *       owner never blocks a successor. The file records who holds it, for the refusal message.
 *   <li>an epoch: {@code _epoch}, incremented atomically by every runner that takes the folder and
 *       checked before each manifest commits. Where a lock does not reach (a folder shared between
 *       machines whose file system does not carry locks), a runner whose epoch is no longer the
 *       folder's is fenced: its commit is refused, so two runners never both commit.
 * </ul>
 */
public final class StorageOwner implements AutoCloseable {
    static final String LOCK_FILE = "_owner.lock";
    static final String EPOCH_FILE = "_epoch";

    private final Path root;
    private final FileChannel channel;
    private final FileLock lock;
    private final long epoch;
    private volatile boolean released;

    /** Who holds a folder: written into the lock file, named in refusals. */
    public record Owner(String job, String host, long pid, String startedAt, long epoch) {
        @Override
        public String toString() {
            return "job '"
                    + job
                    + "' on host "
                    + host
                    + ", pid "
                    + pid
                    + ", started "
                    + startedAt
                    + ", epoch "
                    + epoch;
        }
    }

    private StorageOwner(Path root, FileChannel channel, FileLock lock, long epoch) {
        this.root = root;
        this.channel = channel;
        this.lock = lock;
        this.epoch = epoch;
    }

    /**
     * Takes {@code root} for {@code job}: creates it if needed, locks it, increments its epoch and
     * records this process as the owner.
     *
     * @throws SnapshotException if the folder cannot be written or another runner holds it
     */
    public static StorageOwner acquire(Path root, String job, Clock clock) {
        FileChannel channel = open(root);
        try {
            FileLock lock = tryLock(channel);
            if (lock == null) {
                channel.close();
                throw new SnapshotException(
                        "snapshot storage "
                                + root
                                + " is in use by another runner ("
                                + holder(root)
                                + "); stop that runner or give this one its own --savepoint-dir");
            }
            long epoch = readEpoch(root) + 1;
            writeEpoch(root, epoch);
            Owner me =
                    new Owner(
                            job,
                            host(),
                            ProcessHandle.current().pid(),
                            clock.instant().toString(),
                            epoch);
            byte[] json = StateCodec.json().writeValueAsBytes(me);
            channel.truncate(0).write(ByteBuffer.wrap(json), 0);
            channel.force(true);
            return new StorageOwner(root, channel, lock, epoch);
        } catch (IOException e) {
            closeQuietly(channel);
            throw unwritable(root, e);
        }
    }

    private static FileChannel open(Path root) {
        try {
            Files.createDirectories(root);
            return FileChannel.open(
                    root.resolve(LOCK_FILE),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw unwritable(root, e);
        }
    }

    /** Null if another process, or another runner in this process, holds the lock. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static String holder(Path root) {
        try {
            return StateCodec.json()
                    .readValue(root.resolve(LOCK_FILE).toFile(), Owner.class)
                    .toString();
        } catch (IOException | RuntimeException e) {
            return "owner not recorded yet";
        }
    }

    static long readEpoch(Path root) throws IOException {
        Path file = root.resolve(EPOCH_FILE);
        if (!Files.exists(file)) {
            return 0;
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new SnapshotException(
                    "snapshot storage "
                            + root
                            + ": "
                            + EPOCH_FILE
                            + " holds '"
                            + text
                            + "', not a number; it was edited or damaged: write the highest epoch you know into it",
                    e);
        }
    }

    private static void writeEpoch(Path root, long epoch) throws IOException {
        Path tmp = root.resolve(EPOCH_FILE + ".tmp");
        Files.writeString(tmp, Long.toString(epoch), StandardCharsets.US_ASCII);
        try (FileChannel sync = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            sync.force(true);
        }
        Files.move(tmp, root.resolve(EPOCH_FILE), StandardCopyOption.ATOMIC_MOVE);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }

    private static SnapshotException unwritable(Path root, IOException e) {
        return new SnapshotException(
                "snapshot storage "
                        + root
                        + " cannot be written ("
                        + e
                        + "); give "
                        + "--savepoint-dir a folder this process may create and write",
                e);
    }

    public long epoch() {
        return epoch;
    }

    public Path root() {
        return root;
    }

    /**
     * Throws unless this runner still owns the folder: its lock is held and the folder's epoch is
     * still the one it wrote. Called before every manifest commit.
     */
    public void checkFence() {
        long current;
        try {
            current = readEpoch(root);
        } catch (IOException e) {
            throw new SnapshotException(
                    "snapshot storage "
                            + root
                            + ": cannot read "
                            + EPOCH_FILE
                            + " before a commit ("
                            + e.getMessage()
                            + "); the snapshot is not committed",
                    e);
        }
        if (released || current != epoch) {
            throw new FencedException(
                    "snapshot storage "
                            + root
                            + " was taken over by another runner ("
                            + holder(root)
                            + "; storage epoch "
                            + current
                            + ", this runner's "
                            + epoch
                            + "): this runner may no longer commit "
                            + "snapshots; stop it");
        }
    }

    /** Releases the lock; a later commit by this runner is refused. */
    @Override
    public void close() {
        released = true;
        try {
            lock.release();
        } catch (IOException e) {
            // The channel's close below releases it too.
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Closing releases the lock; nothing else to undo.
        }
    }

    /** This runner no longer owns its snapshot folder. */
    public static final class FencedException extends SnapshotException {
        public FencedException(String message) {
            super(message);
        }
    }
}
