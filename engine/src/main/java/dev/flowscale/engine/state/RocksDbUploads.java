package dev.flowscale.engine.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A RocksDB store's uploads of its checkpoints into snapshot storage: one thread that runs them in
 * order, off the task's thread, and the record of the SST files already uploaded, which each upload
 * reads and replaces.
 */
final class RocksDbUploads {
    private final String storeId;
    private final Map<String, RocksDbFile> uploaded = new LinkedHashMap<>();
    private ThreadPoolExecutor uploader;
    private boolean stopped;

    RocksDbUploads(String storeId) {
        this.storeId = storeId;
    }

    /**
     * Runs {@code work}, the upload of RocksDB checkpoint folder {@code checkpoint}, on the
     * uploader thread after the uploads queued before it, so that they see each other's {@link
     * #uploaded} record in order. The folder is deleted when the work is done; if the store closes
     * before the work runs, the folder is deleted and the future fails.
     */
    synchronized <T> CompletableFuture<T> upload(Path checkpoint, Callable<T> work) {
        Upload<T> upload = new Upload<>(checkpoint, work, new CompletableFuture<>());
        if (stopped) {
            upload.drop();
        } else {
            if (uploader == null) {
                // One thread, and a queue that stop() can drain without interrupting it.
                uploader =
                        new ThreadPoolExecutor(
                                1,
                                1,
                                0,
                                TimeUnit.MILLISECONDS,
                                new LinkedBlockingQueue<>(),
                                r -> {
                                    Thread thread = new Thread(r, "flowscale-upload-" + storeId);
                                    thread.setDaemon(true);
                                    return thread;
                                });
            }
            uploader.execute(upload);
        }
        return upload.result();
    }

    /** One queued upload: the folder it copies, the work, and its result. */
    private record Upload<T>(Path folder, Callable<T> work, CompletableFuture<T> result)
            implements Runnable {
        @Override
        public void run() {
            // The folder goes first: whoever waits for the result may then count on it gone.
            T value;
            try {
                value = work.call();
            } catch (Exception e) {
                WorkingFolders.delete(folder);
                result.completeExceptionally(e);
                return;
            }
            WorkingFolders.delete(folder);
            result.complete(value);
        }

        void drop() {
            WorkingFolders.delete(folder);
            result.completeExceptionally(
                    new IOException(
                            "the RocksDB store closed before checkpoint folder "
                                    + folder
                                    + " was copied into storage"));
        }
    }

    /**
     * The SST files of the store already in snapshot storage, by local name, as the last complete
     * upload recorded them; read and written by uploads only, which run one at a time on the
     * uploader thread.
     */
    Map<String, RocksDbFile> uploaded() {
        return uploaded;
    }

    /**
     * Replaces the record of uploaded files with {@code files}, once an upload has copied them all;
     * on the uploader thread, or before the store's first upload.
     */
    void record(Collection<RocksDbFile> files) {
        synchronized (uploaded) {
            uploaded.clear();
            files.forEach(f -> uploaded.put(f.name(), f));
        }
    }

    /** The entries of the record of uploaded files whose SST files folder {@code dir} holds. */
    List<RocksDbFile> in(Path dir) {
        synchronized (uploaded) {
            return uploaded.values().stream()
                    .filter(f -> Files.isRegularFile(dir.resolve(f.name())))
                    .toList();
        }
    }

    /**
     * Drops the uploads not started (their checkpoints are discarded anyway) and waits for the one
     * running, which reads only its own hard-linked folder, not the database. The running one is
     * never interrupted: an interrupt closes the file channel it copies through
     * (ClosedByInterruptException), and with it the checkpoint it may be about to complete. A
     * caller that is itself interrupted (a task cancelled with its job) still waits, then keeps its
     * interrupt. Uploads asked for afterwards are dropped.
     */
    synchronized void stop() {
        stopped = true;
        if (uploader == null) {
            return;
        }
        List<Runnable> queued = new ArrayList<>();
        uploader.getQueue().drainTo(queued);
        queued.forEach(r -> ((Upload<?>) r).drop());
        uploader.shutdown();
        boolean interrupted = Thread.interrupted();
        while (true) {
            try {
                uploader.awaitTermination(1, TimeUnit.MINUTES);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
