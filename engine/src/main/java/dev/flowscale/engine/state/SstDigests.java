package dev.flowscale.engine.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.ExternalFileIngestionInfo;
import org.rocksdb.RocksDB;
import org.rocksdb.Status;
import org.rocksdb.TableFileCreationInfo;

/**
 * The sums (length, CRC-32, SHA-256) of a store's SST files, computed on a background thread as
 * soon as RocksDB has finished writing each one (a flush or a compaction) or ingested it (a
 * key-group copy), so that an incremental checkpoint finds them ready instead of reading every new
 * file for them while it is pending. SST files never change and a store never reuses a file name,
 * so a file's sums stay its sums; one whose sums are not ready yet is read by the checkpoint as
 * before.
 */
final class SstDigests extends AbstractEventListener {
    private final Map<String, FileSums.Sums> byName = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor hasher;

    SstDigests(String storeName) {
        super(
                EnabledEventCallback.ON_TABLE_FILE_CREATED,
                EnabledEventCallback.ON_EXTERNAL_FILE_INGESTED);
        hasher =
                new ThreadPoolExecutor(
                        1,
                        1,
                        0,
                        TimeUnit.MILLISECONDS,
                        new LinkedBlockingQueue<>(),
                        r -> {
                            Thread thread = new Thread(r, "flowscale-sst-sums-" + storeName);
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /** Called by RocksDB on one of its threads once a new SST file is written and synced. */
    @Override
    public void onTableFileCreated(TableFileCreationInfo info) {
        if (info.getStatus() == null || info.getStatus().getCode() != Status.Code.Ok) {
            return;
        }
        measureLater(Path.of(info.getFilePath()));
    }

    /** Called by RocksDB once a file written outside it (a key-group copy) is one of its files. */
    @Override
    public void onExternalFileIngested(RocksDB db, ExternalFileIngestionInfo info) {
        measureLater(Path.of(info.getInternalFilePath()));
    }

    private void measureLater(Path file) {
        if (!file.getFileName().toString().endsWith(".sst")) {
            return;
        }
        try {
            hasher.execute(() -> measure(file));
        } catch (RejectedExecutionException e) {
            // The store is closing: nothing will ask for these sums.
        }
    }

    private void measure(Path file) {
        try {
            byName.put(file.getFileName().toString(), FileSums.of(file));
        } catch (IOException e) {
            // Deleted by a compaction before its turn: never checkpointed, nothing to record.
        }
    }

    /** The sums of SST file {@code name} if they are ready and match its length {@code bytes}. */
    FileSums.Sums of(String name, long bytes) {
        FileSums.Sums sums = byName.get(name);
        return sums != null && sums.bytes() == bytes ? sums : null;
    }

    /**
     * Forgets the files of {@code dir} that are gone (compacted away), so the record stays small.
     */
    void forgetMissing(Path dir) {
        byName.keySet().removeIf(name -> !Files.exists(dir.resolve(name)));
    }

    /** Stops measuring: drops what is queued and waits for the file being read. */
    void stop() {
        hasher.getQueue().clear();
        hasher.shutdown();
        try {
            hasher.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
