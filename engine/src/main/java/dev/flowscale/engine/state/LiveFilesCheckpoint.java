package dev.flowscale.engine.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB checkpoint of a store whose write buffers were just flushed: its live SST files
 * hard-linked into a new folder, its MANIFEST copied up to the length that describes them, and a
 * CURRENT file naming it; a database opened on the folder holds the store's contents as they were.
 *
 * <p>Not RocksDB's own {@code Checkpoint}: with the write-ahead log off, that one flushes again and
 * waits until a flush "would not stall writes" (for the flush thread and compactions behind a fill,
 * even with nothing to flush), then fsyncs each file and the folder. Timing prints in a 1 GB
 * benchmark fork put 0.7–4.0 s there, and the flush before it 2.0 s, on the task's thread at the
 * barrier. This folder is temporary: the checkpoint's upload fsyncs what it puts in storage.
 */
final class LiveFilesCheckpoint {
    private LiveFilesCheckpoint() {}

    /** Makes the checkpoint of {@code db}, whose files are in {@code dir}, in {@code target}. */
    static void create(RocksDB db, Path dir, Path target) throws RocksDBException, IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        // Compactions go on, but the files listed stay on disk until they are linked or copied.
        db.disableFileDeletions();
        try {
            RocksDB.LiveFiles live = db.getLiveFiles(false);
            Files.createDirectories(tmp);
            for (String listed : live.files) {
                String name = listed.startsWith("/") ? listed.substring(1) : listed;
                put(dir.resolve(name), tmp.resolve(name), live.manifestFileSize);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            db.enableFileDeletions();
        }
    }

    private static void put(Path from, Path to, long manifestBytes) throws IOException {
        String name = from.getFileName().toString();
        if (name.endsWith(".sst")) {
            Files.createLink(to, from);
        } else if (name.startsWith("MANIFEST-")) {
            // RocksDB appends to it as compactions finish: the listed length is this file set's.
            copyPrefix(from, to, manifestBytes);
            Files.writeString(to.resolveSibling("CURRENT"), name + "\n", StandardCharsets.US_ASCII);
        } else if (!name.equals("CURRENT")) {
            // CURRENT is written above (the live one may already name a newer MANIFEST).
            Files.copy(from, to);
        }
    }

    private static void copyPrefix(Path from, Path to, long bytes) throws IOException {
        byte[] prefix;
        try (InputStream in = Files.newInputStream(from)) {
            // A MANIFEST lists files and edits: kilobytes to a few MB, read at once.
            prefix = in.readNBytes(Math.toIntExact(bytes));
        }
        if (prefix.length < bytes) {
            throw new IOException(
                    "MANIFEST " + from + " has " + prefix.length + " bytes, fewer than " + bytes);
        }
        Files.write(to, prefix);
    }
}
