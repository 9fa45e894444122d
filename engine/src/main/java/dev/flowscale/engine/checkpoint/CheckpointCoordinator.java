package dev.flowscale.engine.checkpoint;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs the checkpoints of one job execution, one at a time: injects a barrier at every source,
 * collects every task's acknowledgement, and completes the snapshot by writing its manifest, after
 * checking that this runner still owns the storage (fencing). A checkpoint that a task declines,
 * that times out or whose files cannot be written is discarded; a savepoint request supersedes a
 * periodic checkpoint in progress. After each commit, retention deletes old snapshots: a checkpoint
 * is reported complete once its manifest is durable and retention runs right after, always before
 * the next snapshot starts (a trigger finds retention still owed runs it first), so retention never
 * runs while a snapshot is being written and never deletes a file one is about to reference. A
 * savepoint is reported after its retention, because other runs of the same storage wait for it (a
 * hand-over's savepoint) before they start checkpoints of their own.
 */
public final class CheckpointCoordinator {
    private final String jobName;
    private final int keyGroups;
    private final Map<String, Integer> parallelism;
    private final Settings settings;
    private final AtomicLong ids;
    private final Consumer<CheckpointBarrier> sources;
    private final ScheduledExecutorService timer;
    private Pending pending;

    /** The retention owed by the last commit, run before the next snapshot starts; or null. */
    private Runnable retention;

    /**
     * Where and how a job's snapshots are committed.
     *
     * @param storage the snapshot folders
     * @param owner this runner's ownership of the storage; checked before every commit
     * @param timeout a snapshot not complete after this long is discarded
     * @param retained complete checkpoints and savepoints kept each
     * @param pinned snapshots retention must keep whatever their age (e.g. the one restored from)
     * @param clock the time written into manifests
     */
    public record Settings(
            CheckpointStorage storage,
            StorageOwner owner,
            Duration timeout,
            int retained,
            Supplier<Set<Path>> pinned,
            Clock clock) {}

    public CheckpointCoordinator(
            String jobName,
            int keyGroups,
            Map<String, Integer> parallelism,
            Settings settings,
            AtomicLong ids,
            Consumer<CheckpointBarrier> sources,
            ScheduledExecutorService timer) {
        this.jobName = jobName;
        this.keyGroups = keyGroups;
        this.parallelism = new LinkedHashMap<>(parallelism);
        this.settings = settings;
        this.ids = ids;
        this.sources = sources;
        this.timer = timer;
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
     * Starts a snapshot; the future completes with its directory once the manifest is written, or
     * exceptionally if it fails or times out.
     */
    public synchronized CompletableFuture<Path> trigger(boolean savepoint, boolean stopAfter) {
        return trigger(savepoint, stopAfter, false);
    }

    /**
     * Starts a snapshot whose barrier may ask for a hand-over ({@link CheckpointBarrier}): the
     * tasks then capture their state, and whoever writes their files from the captures
     * acknowledges.
     */
    public synchronized CompletableFuture<Path> trigger(
            boolean savepoint, boolean stopAfter, boolean handOver) {
        if (pending != null) {
            if (!savepoint) {
                return CompletableFuture.failedFuture(
                        new SnapshotException(
                                "checkpoint skipped: checkpoint "
                                        + pending.barrier.id()
                                        + " of job '"
                                        + jobName
                                        + "' is still in progress"));
            }
            abort(
                    pending,
                    new Abandoned(
                            "checkpoint " + pending.barrier.id() + " superseded by a savepoint"));
        }
        runOwedRetention();
        long id = ids.incrementAndGet();
        CheckpointBarrier barrier = new CheckpointBarrier(id, savepoint, stopAfter, handOver);
        Path dir;
        try {
            dir = settings.storage().create(id, savepoint);
        } catch (SnapshotException e) {
            return CompletableFuture.failedFuture(e);
        }
        Pending started = new Pending(barrier, dir);
        pending = started;
        try {
            sources.accept(barrier);
        } finally {
            // After the barrier is on its way (the first timer task of a run starts the timer's
            // thread); acknowledgements wait for this lock, so the snapshot cannot end before it.
            timer.schedule(
                    () -> expire(started), settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        return started.result;
    }

    /** The id of the snapshot being taken; -1 if none. */
    public synchronized long pendingId() {
        return pending == null ? -1 : pending.barrier.id();
    }

    /** Whether a snapshot is being taken now. */
    public synchronized boolean isPending() {
        return pending != null;
    }

    /**
     * Where a task writes its part of snapshot {@code id}; null if that snapshot is no longer
     * pending.
     */
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
            abort(
                    pending,
                    new SnapshotException(
                            "snapshot "
                                    + id
                                    + " of job '"
                                    + jobName
                                    + "' declined by "
                                    + task
                                    + ": "
                                    + (cause.getMessage() == null
                                            ? cause.toString()
                                            : cause.getMessage()),
                            cause));
        }
    }

    /**
     * Gives the pending snapshot up for a reason that is no failure of it (the job's tasks ended),
     * so that it is not counted as one.
     */
    public synchronized void abandonPending(String reason) {
        if (pending != null) {
            abort(pending, new Abandoned(pendingEnd("given up", reason)));
        }
    }

    /** Fails the pending snapshot, e.g. because the job failed or was cancelled. */
    public synchronized void abortPending(String reason) {
        if (pending != null) {
            abort(pending, new SnapshotException(pendingEnd("aborted", reason)));
        }
    }

    private String pendingEnd(String how, String reason) {
        return "snapshot "
                + pending.barrier.id()
                + " of job '"
                + jobName
                + "' "
                + how
                + ": "
                + reason;
    }

    private void complete(Pending done) {
        List<SnapshotMetadata.OperatorEntry> operators = new ArrayList<>();
        parallelism.forEach(
                (op, p) ->
                        operators.add(
                                new SnapshotMetadata.OperatorEntry(
                                        op,
                                        p,
                                        done.acks.values().stream()
                                                .filter(h -> h.operatorId().equals(op))
                                                .toList())));
        SnapshotMetadata metadata =
                new SnapshotMetadata(
                        SnapshotMetadata.FORMAT_VERSION,
                        jobName,
                        done.barrier.id(),
                        done.barrier.savepoint() ? "SAVEPOINT" : "CHECKPOINT",
                        settings.clock().millis(),
                        keyGroups,
                        settings.owner().epoch(),
                        operators,
                        null,
                        null);
        try {
            ManifestFile.write(
                    done.dir, metadata, settings.owner()::checkFence, settings.storage().signing());
        } catch (StorageOwner.FencedException e) {
            abort(
                    done,
                    new StorageOwner.FencedException(
                            "snapshot "
                                    + done.barrier.id()
                                    + " of job '"
                                    + jobName
                                    + "' not committed: "
                                    + e.getMessage()));
            return;
        } catch (SnapshotException e) {
            abort(done, e);
            return;
        }
        pending = null;
        Set<Path> pinned = new HashSet<>(settings.pinned().get());
        pinned.add(done.dir);
        long id = done.barrier.id();
        retention = () -> settings.storage().retain(settings.retained(), id, pinned);
        if (done.barrier.savepoint()) {
            runOwedRetention();
        }
        // Callbacks run here, under this lock; one that triggers a snapshot runs retention first.
        done.result.complete(done.dir);
        runOwedRetention();
    }

    private void runOwedRetention() {
        Runnable owed = retention;
        retention = null;
        if (owed != null) {
            owed.run();
        }
    }

    private synchronized void expire(Pending candidate) {
        if (pending == candidate) {
            abort(
                    candidate,
                    new SnapshotException(
                            "snapshot "
                                    + candidate.barrier.id()
                                    + " of job '"
                                    + jobName
                                    + "' timed out after "
                                    + settings.timeout().toMillis()
                                    + " ms",
                            new TimeoutException()));
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

    /**
     * A snapshot given up for a reason that is no failure of it: a savepoint began (it carries the
     * same state) or the job's tasks ended. It is neither logged nor counted, and counts against no
     * tolerance.
     */
    public static final class Abandoned extends SnapshotException {
        Abandoned(String message) {
            super(message);
        }
    }
}
