package dev.flowscale.engine.checkpoint;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Runs the checkpoints of one job execution, one at a time: injects a barrier at every
 * source, collects every task's acknowledgement, and completes the snapshot by writing its
 * manifest. A checkpoint that a task declines or that times out is discarded; a savepoint
 * request supersedes a periodic checkpoint in progress.
 */
public final class CheckpointCoordinator {
    private final String jobName;
    private final int maxParallelism;
    private final Map<String, Integer> parallelism;
    private final CheckpointStorage storage;
    private final AtomicLong ids;
    private final Consumer<CheckpointBarrier> sources;
    private final ScheduledExecutorService timer;
    private final Duration timeout;
    private final int retained;
    private Pending pending;

    public CheckpointCoordinator(String jobName, int maxParallelism, Map<String, Integer> parallelism,
                                 CheckpointStorage storage, AtomicLong ids, Consumer<CheckpointBarrier> sources,
                                 ScheduledExecutorService timer, Duration timeout, int retained) {
        this.jobName = jobName;
        this.maxParallelism = maxParallelism;
        this.parallelism = new LinkedHashMap<>(parallelism);
        this.storage = storage;
        this.ids = ids;
        this.sources = sources;
        this.timer = timer;
        this.timeout = timeout;
        this.retained = retained;
    }

    /** A snapshot being taken: its barrier, directory and the acknowledgements so far. */
    private static final class Pending {
        final CheckpointBarrier barrier;
        final Path dir;
        final Map<String, TaskStateHandle> acks = new LinkedHashMap<>();
        final CompletableFuture<Path> result = new CompletableFuture<>();

        Pending(CheckpointBarrier barrier, Path dir) {
            this.barrier = barrier;
            this.dir = dir;
        }
    }

    /**
     * Starts a snapshot; the future completes with its directory once the manifest is written,
     * or exceptionally if it fails or times out.
     */
    public synchronized CompletableFuture<Path> trigger(boolean savepoint, boolean stopAfter) {
        if (pending != null) {
            if (!savepoint) {
                return CompletableFuture.failedFuture(new SnapshotException("checkpoint skipped: checkpoint "
                        + pending.barrier.id() + " of job '" + jobName + "' is still in progress"));
            }
            abort(pending, new SnapshotException("checkpoint " + pending.barrier.id() + " superseded by a savepoint"));
        }
        long id = ids.incrementAndGet();
        CheckpointBarrier barrier = new CheckpointBarrier(id, savepoint, stopAfter);
        Pending started = new Pending(barrier, storage.create(id, savepoint));
        pending = started;
        timer.schedule(() -> expire(started), timeout.toMillis(), TimeUnit.MILLISECONDS);
        sources.accept(barrier);
        return started.result;
    }

    /** Where a task writes its part of snapshot {@code id}; null if that snapshot is no longer pending. */
    public synchronized Path directory(long id) {
        return pending != null && pending.barrier.id() == id ? pending.dir : null;
    }

    public synchronized void acknowledge(long id, TaskStateHandle handle) {
        if (pending == null || pending.barrier.id() != id) {
            return;
        }
        pending.acks.put(handle.operatorId() + "#" + handle.instance(), handle);
        if (pending.acks.size() == totalTasks()) {
            complete(pending);
        }
    }

    public synchronized void decline(long id, String task, Throwable cause) {
        if (pending != null && pending.barrier.id() == id) {
            abort(pending, new SnapshotException("snapshot " + id + " of job '" + jobName + "' declined by " + task
                    + ": " + cause.getMessage(), cause));
        }
    }

    /** Fails the pending snapshot, e.g. because the job failed or was cancelled. */
    public synchronized void abortPending(String reason) {
        if (pending != null) {
            abort(pending, new SnapshotException("snapshot " + pending.barrier.id() + " of job '" + jobName
                    + "' aborted: " + reason));
        }
    }

    private void complete(Pending done) {
        List<SnapshotMetadata.OperatorEntry> operators = new ArrayList<>();
        parallelism.forEach((op, p) -> operators.add(new SnapshotMetadata.OperatorEntry(op, p,
                done.acks.values().stream().filter(h -> h.operatorId().equals(op)).toList())));
        SnapshotMetadata metadata = new SnapshotMetadata(SnapshotMetadata.FORMAT_VERSION, jobName, done.barrier.id(),
                done.barrier.savepoint() ? "SAVEPOINT" : "CHECKPOINT", System.currentTimeMillis(), maxParallelism,
                operators);
        try {
            CheckpointStorage.writeMetadata(done.dir, metadata);
        } catch (SnapshotException e) {
            abort(done, e);
            return;
        }
        pending = null;
        if (!done.barrier.savepoint()) {
            storage.retain(retained, done.barrier.id());
        }
        done.result.complete(done.dir);
    }

    private synchronized void expire(Pending candidate) {
        if (pending == candidate) {
            abort(candidate, new SnapshotException("snapshot " + candidate.barrier.id() + " of job '" + jobName
                    + "' timed out after " + timeout.toMillis() + " ms", new TimeoutException()));
        }
    }

    private void abort(Pending failed, SnapshotException cause) {
        if (pending == failed) {
            pending = null;
        }
        CheckpointStorage.discard(failed.dir);
        failed.result.completeExceptionally(cause);
    }

    private int totalTasks() {
        return parallelism.values().stream().mapToInt(Integer::intValue).sum();
    }
}
