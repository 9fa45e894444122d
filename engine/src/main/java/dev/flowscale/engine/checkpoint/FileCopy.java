package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.FileSums;
import dev.flowscale.engine.state.FileSums.Sums;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Copies a file while computing its length, CRC-32 and SHA-256 in the same pass: checkpoints record
 * them for the files they upload, restores check them for the files they download.
 */
final class FileCopy {
    private FileCopy() {}

    /**
     * Copies {@code from} to {@code to} through a temporary file that is fsynced and renamed, so a
     * copy cut short never leaves a complete-looking file behind.
     */
    static Sums copy(Path from, Path to) throws IOException {
        return copy(from, to, true);
    }

    /**
     * Copies {@code from} to {@code to} like {@link #copy(Path, Path)} but without the fsync: the
     * caller makes a batch of copies durable at once with {@link #sync}, so that writing one file
     * overlaps the write-back of the ones before it instead of waiting for it.
     */
    static Sums copyUnsynced(Path from, Path to) throws IOException {
        return copy(from, to, false);
    }

    /**
     * Puts {@code from}, a file that never changes once written (a RocksDB SST file), at {@code to}
     * as a hard link when both are on one file system, so its bytes are not written a second time;
     * a copy like {@link #copyUnsynced} where they are not (another mount, no hard links). A link
     * takes {@code known}, the file's sums measured earlier, if not null, and otherwise reads the
     * file once for them. {@code to} appears whole (a link at once, a copy by an atomic rename);
     * nothing is fsynced here. A copy is added to {@code unsynced}, for the caller to sync with the
     * batch ({@link #sync}); a link is not: RocksDB syncs every SST file before it becomes part of
     * the database (flushes, compactions, ingested files), and a link is that same file under a
     * second name, so only the folder that holds the name needs a sync (a file's fsync can be a
     * journal commit of its own, on the checkpoint's critical path).
     */
    static Sums linkOrCopyUnsynced(Path from, Path to, Sums known, List<Path> unsynced)
            throws IOException {
        try {
            link(from, to);
        } catch (UnsupportedOperationException | IOException e) {
            // Across file systems (EXDEV) or where links are refused: the bytes must be copied.
            Sums sums = copyUnsynced(from, to);
            unsynced.add(to);
            return sums;
        }
        return known != null ? known : FileSums.of(to);
    }

    /**
     * Links {@code to} to {@code from}. A link appears whole or not at all, so it needs no
     * temporary name; a file already at {@code to} (left by a checkpoint that failed after linking)
     * is kept if it is {@code from} itself and replaced otherwise.
     */
    private static void link(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isSameFile(to, from)) {
                Files.delete(to);
                Files.createLink(to, from);
            }
        }
    }

    /**
     * Makes {@code files} durable, then the folders they were renamed into (their names), in that
     * order: what a manifest written afterwards names is then on disk.
     */
    static void sync(List<Path> files, List<Path> folders) throws IOException {
        for (Path file : files) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }
        for (Path folder : folders) {
            try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
                channel.force(true);
            } catch (IOException e) {
                // Some file systems cannot open a folder for sync; their renames are durable.
            }
        }
    }

    private static Sums copy(Path from, Path to, boolean force) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        Sums sums;
        try (InputStream in = Files.newInputStream(from);
                FileChannel channel =
                        FileChannel.open(
                                tmp,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.TRUNCATE_EXISTING,
                                StandardOpenOption.WRITE);
                OutputStream out = java.nio.channels.Channels.newOutputStream(channel)) {
            sums = FileSums.transfer(in, out);
            out.flush();
            if (force) {
                channel.force(true);
            }
        }
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return sums;
    }
}
