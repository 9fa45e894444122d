package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDBException;

/**
 * The checkpoints of one {@link RocksDbKeyedStore}: RocksDB checkpoint folders beside the store,
 * whole-store copies made from them, their upload on the store's uploader thread, and the record of
 * which SST files are already in snapshot storage. A checkpoint is made under the store's lock, so
 * it never meets a new column family or a closing database.
 */
public final class RocksDbCheckpoints {
    private final RocksDbKeyedStore store;
    private final SstDigests digests;

    /** Copies checkpoints into storage one after another, off the task's thread. */
    private final RocksDbUploads uploads;

    private int made;

    RocksDbCheckpoints(RocksDbKeyedStore store, SstDigests digests) {
        this.store = store;
        this.digests = digests;
        this.uploads = new RocksDbUploads(store.id());
    }

    /**
     * Flushes the write buffers and makes a RocksDB checkpoint in a new folder beside the store:
     * the immutable SST files hard-linked, the small descriptor files copied. The caller deletes
     * the folder when it has copied what it needs.
     */
    public synchronized Path checkpoint() {
        Path target = store.dir().resolveSibling(store.id() + "-chk-" + (++made));
        checkpointInto(target);
        return target;
    }

    /**
     * A new store that starts with the store's contents as they are now (a RocksDB checkpoint: SST
     * files hard-linked, so near-instant and without copying on one file system), in a fresh folder
     * of {@code config}'s local directory; it is independent of the store from then on. Its record
     * of uploaded files starts with the entries of the store's record whose SST files it shares
     * (hard links keep their names, and a store never reuses a file number), so its first
     * incremental checkpoint copies only files made since.
     */
    public RocksDbKeyedStore copy(StateBackendConfig config, String name) {
        Path target = StoreFolders.reserve(config, name);
        checkpointInto(target);
        try {
            RocksDbKeyedStore copy = RocksDbKeyedStore.openCopy(target, store.states(), config);
            copy.checkpoints().recordUploaded(uploads.in(target));
            return copy;
        } catch (RuntimeException e) {
            WorkingFolders.delete(target);
            throw e;
        }
    }

    private void checkpointInto(Path target) {
        synchronized (store) {
            // Writes may stall while this flush runs: the task's thread, the only writer, waits.
            try (FlushOptions flush =
                    new FlushOptions().setWaitForFlush(true).setAllowWriteStall(true)) {
                List<ColumnFamilyHandle> handles = store.handles();
                if (!handles.isEmpty()) {
                    store.db().flush(flush, handles);
                }
                LiveFilesCheckpoint.create(store.db(), store.dir(), target);
            } catch (RocksDBException | IOException e) {
                throw new EngineException(
                        "RocksDB state in "
                                + store.dir()
                                + ": cannot make a checkpoint in "
                                + target
                                + " ("
                                + e
                                + ")",
                        e);
            }
        }
    }

    /**
     * Runs {@code work}, the upload of RocksDB checkpoint folder {@code checkpoint}, on the store's
     * uploader thread (see {@link RocksDbUploads#upload}).
     */
    public <T> CompletableFuture<T> upload(Path checkpoint, Callable<T> work) {
        return uploads.upload(checkpoint, work);
    }

    /** The SST files of the store already in snapshot storage (see {@link RocksDbUploads}). */
    public Map<String, RocksDbFile> uploaded() {
        return uploads.uploaded();
    }

    /** Replaces the record of uploaded files (see {@link RocksDbUploads#record}). */
    public void recordUploaded(Collection<RocksDbFile> files) {
        uploads.record(files);
    }

    /**
     * The length, CRC-32 and SHA-256 of the store's SST file {@code name}, measured in the
     * background when RocksDB wrote it, if they are ready and the file has {@code bytes} bytes;
     * null otherwise (the caller reads the file). Also forgets files compacted away since.
     */
    public FileSums.Sums sumsOf(String name, long bytes) {
        FileSums.Sums sums = digests.of(name, bytes);
        if (sums == null) {
            digests.forgetMissing(store.dir());
        }
        return sums;
    }

    /** Stops the uploader thread (the store is closing). */
    void stop() {
        uploads.stop();
    }
}
