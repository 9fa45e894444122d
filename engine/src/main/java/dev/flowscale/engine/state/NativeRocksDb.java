package dev.flowscale.engine.state;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.Env;
import org.rocksdb.Priority;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's native library from a cache folder of the user's, extracted there once per
 * RocksDB version, instead of into a new temporary file per process ({@link RocksDB#loadLibrary()}
 * extracts about 15 MB per JVM, which a killed process leaves behind). The folder is {@code
 * FLOWSCALE_CACHE_DIR}, or {@code XDG_CACHE_HOME/flowscale}, or {@code ~/.cache/flowscale}, with a
 * subfolder {@code rocksdbjni-VERSION}; the library is written to a temporary name and renamed, so
 * processes starting together never load a half-written file. Where no cache folder can be written,
 * RocksDB's own loader runs.
 */
final class NativeRocksDb {
    /**
     * Flush threads for every store of this process. RocksDB's flushes run in one process-wide pool
     * that it grows to what one database's options ask for, one thread with the defaults; a
     * checkpoint flushes every store at its barrier, so with one thread the stores of a job flushed
     * one after the other (seen in a 100 MB checkpoint of two instances: the second flush finished
     * a whole flush after the first). One thread per core, at least two, at most eight.
     */
    static final int FLUSH_THREADS =
            Math.min(8, Math.max(2, Runtime.getRuntime().availableProcessors()));

    private NativeRocksDb() {}

    /** Sizes RocksDB's process-wide flush pool to {@link #FLUSH_THREADS}. */
    static void sizeFlushPool() {
        Env.getDefault().setBackgroundThreads(FLUSH_THREADS, Priority.HIGH);
    }

    static void load() {
        // The jar holds the library as RocksDB's own loader names it; loadLibrary(paths) looks in
        // each folder for the name of "rocksdbjni" (librocksdbjnijni-linux64.so on Linux x86-64).
        URL library =
                RocksDB.class
                        .getClassLoader()
                        .getResource(Environment.getJniLibraryFileName("rocksdb"));
        String name = Environment.getJniLibraryFileName("rocksdbjni");
        long length = length(library);
        for (Path folder : candidates(length)) {
            try {
                if (length > 0 && extract(library, length, folder.resolve(name))) {
                    RocksDB.loadLibrary(List.of(folder.toString()));
                    return;
                }
            } catch (IOException | UnsatisfiedLinkError e) {
                // Try the next folder, and in the end RocksDB's own loader.
            }
        }
        RocksDB.loadLibrary();
    }

    private static long length(URL library) {
        try {
            return library == null ? -1 : library.openConnection().getContentLengthLong();
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * The cache folders to try, in order, each with a subfolder for this RocksDB version (for its
     * library's length where the jar does not say its version).
     */
    static List<Path> candidates(long length) {
        String version = RocksDB.class.getPackage().getImplementationVersion();
        String sub = "rocksdbjni-" + (version == null ? "length-" + length : version);
        List<Path> folders = new ArrayList<>();
        String own = System.getenv("FLOWSCALE_CACHE_DIR");
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (own != null && !own.isBlank()) {
            folders.add(Path.of(own, sub));
        }
        if (xdg != null && !xdg.isBlank()) {
            folders.add(Path.of(xdg, "flowscale", sub));
        }
        folders.add(Path.of(System.getProperty("user.home"), ".cache", "flowscale", sub));
        folders.add(
                Path.of(
                        System.getProperty("java.io.tmpdir"),
                        "flowscale-cache-" + System.getProperty("user.name"),
                        sub));
        return folders;
    }

    /**
     * Makes sure {@code target} holds the library: kept if it has the resource's length (a version
     * folder never holds another build), written otherwise. Returns whether it is there.
     */
    private static boolean extract(URL library, long length, Path target) throws IOException {
        if (Files.isRegularFile(target) && Files.size(target) == length) {
            return true;
        }
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), ".rocksdbjni-", ".tmp");
        try (InputStream in = library.openStream()) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return Files.size(target) == length;
    }
}
