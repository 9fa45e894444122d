package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.checkpoint.SnapshotReader;
import dev.flowscale.engine.checkpoint.SnapshotSigning;
import dev.flowscale.engine.checkpoint.StorageOwner;
import dev.flowscale.engine.graph.JobGraph;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Takes a job's snapshots on its current run: periodic checkpoints on a schedule, checkpoints and
 * savepoints on request, and the stop and hand-over savepoints of a stop or rescale; counts their
 * outcomes and fails the job over when periodic checkpoints keep failing, or for good when it was
 * fenced. Knows the newest complete snapshot the job took or started from.
 */
final class CheckpointTrigger {
    private final String jobName;
    private final JobStorage durable;
    private final ScheduledExecutorService timer;
    private final JobLifecycle lifecycle;
    private final Supplier<JobRun> current;
    private volatile Path lastSnapshot;

    /**
     * The savepoint of the last hand-over rescale, complete once written: periodic checkpoints and
     * restarts wait for it (a restart before it is complete would go back further than the state
     * its sinks may already commit).
     */
    private volatile CompletableFuture<Path> anchor = CompletableFuture.completedFuture(null);

    CheckpointTrigger(
            String jobName,
            JobStorage durable,
            ScheduledExecutorService timer,
            JobLifecycle lifecycle,
            Supplier<JobRun> current) {
        this.jobName = jobName;
        this.durable = durable;
        this.timer = timer;
        this.lifecycle = lifecycle;
        this.current = current;
    }

    /** A new run starts: it owes no failures of the run before it. */
    void runStarted() {
        if (durable != null) {
            durable.stats().resetConsecutive();
        }
    }

    /** The snapshot a run restored from is the newest the job has, unless handed over in memory. */
    void restoredFrom(Path snapshot) {
        lastSnapshot = snapshot;
    }

    void schedulePeriodic() {
        if (durable == null || durable.config().interval().isZero()) {
            return;
        }
        long every = durable.config().interval().toMillis();
        timer.scheduleWithFixedDelay(this::periodic, every, every, TimeUnit.MILLISECONDS);
    }

    /** Never throws: an exception would cancel the schedule, and no checkpoint would follow. */
    private void periodic() {
        try {
            JobRun run = current.get();
            if (lifecycle.phase() == JobLifecycle.Phase.RUNNING
                    && run.coordinator() != null
                    && !run.coordinator().isPending()
                    && anchor.isDone()
                    && !run.execution().hasFinishedTasks()
                    && !run.execution().ended()) {
                take(SnapshotKind.PERIODIC_CHECKPOINT);
            }
        } catch (RuntimeException e) {
            durable.stats().failed("checkpoint", true, e);
        }
    }

    /** Starts a snapshot of {@code kind} on the current run; completes with its directory. */
    CompletableFuture<Path> take(SnapshotKind kind) {
        JobRun run = current.get();
        CheckpointCoordinator c = run.coordinator();
        if (c == null) {
            return refused("has no snapshot storage; set JobConfig.withCheckpointing(...)");
        }
        if (run.execution().hasFinishedTasks() || run.execution().ended()) {
            return refused("cannot take a snapshot: some of its tasks have finished");
        }
        CompletableFuture<Path> result =
                c.trigger(kind.savepoint(), kind.stopAfter(), kind.handOver())
                        .whenComplete((path, error) -> account(kind, run, path, error));
        return result.thenApply(
                path -> {
                    lastSnapshot = path;
                    // Off the completing task's thread: a sink's commit may wait on the network.
                    long id = CheckpointStorage.idOf(path);
                    try {
                        timer.execute(() -> run.execution().checkpointComplete(id));
                    } catch (RejectedExecutionException closing) {
                        // The job is closing: what the snapshot prepared is finished on restore.
                    }
                    return path;
                });
    }

    private CompletableFuture<Path> refused(String why) {
        return CompletableFuture.failedFuture(
                new SnapshotException("job '" + jobName + "' " + why));
    }

    /**
     * Counts a snapshot's outcome; fails the job over when periodic checkpoints have failed for
     * longer than tolerated, or for good if fenced.
     */
    private void account(SnapshotKind kind, JobRun run, Path path, Throwable error) {
        CheckpointStats stats = durable.stats();
        if (error == null) {
            stats.completed(CheckpointStorage.idOf(path), path);
            return;
        }
        Throwable cause =
                error instanceof CompletionException && error.getCause() != null
                        ? error.getCause()
                        : error;
        if (cause instanceof CheckpointCoordinator.Abandoned) {
            return; // superseded by a savepoint (counted on its own), or the job ended
        }
        int inARow = stats.failed(kind.noun(), kind.periodic(), cause);
        if (cause instanceof StorageOwner.FencedException) {
            lifecycle.moveTo(JobLifecycle.Phase.FENCED);
            run.execution()
                    .fail(
                            new JobFailedException(
                                    "job '" + jobName + "' was fenced: " + cause.getMessage(),
                                    cause));
        } else if (kind.periodic()) {
            failOverIfTooLong(run, inARow, cause);
        }
    }

    private void failOverIfTooLong(JobRun run, int inARow, Throwable cause) {
        Duration failing = durable.stats().failingFor();
        Duration tolerance = durable.config().failureTolerance();
        if (failing.compareTo(tolerance) < 0) {
            return;
        }
        run.execution()
                .fail(
                        new JobFailedException(
                                "job '"
                                        + jobName
                                        + "': periodic checkpoints failed for "
                                        + failing.toMillis()
                                        + " ms ("
                                        + inARow
                                        + " in a row), longer than the "
                                        + tolerance.toMillis()
                                        + " ms tolerated (--checkpoint-tolerance);"
                                        + " the last with: "
                                        + cause.getMessage(),
                                cause));
    }

    /** A rescale's savepoint is being written: the job's durable state waits for it. */
    void anchorOn(CompletableFuture<Path> savepoint) {
        anchor = savepoint;
    }

    /**
     * Waits (up to the snapshot timeout) until the last hand-over's savepoint is written or has
     * failed, so that the latest snapshot is known.
     */
    void awaitAnchor() {
        try {
            anchor.get(durable.config().timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Not written: the latest snapshot is the one before the rescale.
        }
    }

    /**
     * The newest complete snapshot this job took or started from: its latest checkpoint, or the
     * savepoint it last took (a stopped job's stop savepoint) or restored from; null when none.
     */
    Path latestSnapshot() {
        Path checkpoint =
                durable == null ? null : durable.storage().latestCheckpoint().orElse(null);
        Path last = lastSnapshot;
        if (checkpoint == null) {
            return last;
        }
        return last == null || idOf(checkpoint) >= idOf(last) ? checkpoint : last;
    }

    /** The state of {@link #latestSnapshot()}, checked with the storage's key; null when none. */
    RestoredState restoreLatest(JobGraph graph) {
        Path from = latestSnapshot();
        return from == null ? null : SnapshotReader.read(from, graph, signing());
    }

    /** How this job's snapshots are signed; unsigned without storage. */
    SnapshotSigning signing() {
        return durable == null ? SnapshotSigning.NONE : durable.storage().signing();
    }

    private static long idOf(Path snapshot) {
        try {
            return SnapshotReader.metadata(snapshot).checkpointId();
        } catch (EngineException e) {
            return -1;
        }
    }
}
