package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.HandOff;
import dev.flowscale.engine.checkpoint.HandOverRestore;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.runner.api.RescaleView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A rescale inside the process: the tasks capture their state at a stop barrier instead of writing
 * it, every key group goes to its new owner (heap: in memory; RocksDB: see {@code
 * RocksDbHandOver}), and the new run starts; the savepoint is then written from the captures in the
 * background. The job's durable state stays its last complete snapshot until that savepoint is
 * complete (see docs/state-backends.md, "Hand-over rescales").
 */
final class HandOverRescale {
    /** How long a rescale waits for the first record at the new parallelism to end its downtime. */
    private static final Duration FIRST_RECORD_WAIT = Duration.ofSeconds(2);

    private final String jobName;
    private final JobConfig config;
    private final JobLifecycle lifecycle;
    private final CheckpointTrigger trigger;
    private final JobRuns runs;

    /** The rescale whose tasks are capturing their state now; null otherwise. */
    private volatile HandOverSavepoint capturing;

    /** Stops the background write of the last hand-over's savepoint (on close). */
    private volatile Runnable abandonWrite = () -> {};

    HandOverRescale(
            String jobName,
            JobConfig config,
            JobLifecycle lifecycle,
            CheckpointTrigger trigger,
            JobRuns runs) {
        this.jobName = jobName;
        this.config = config;
        this.lifecycle = lifecycle;
        this.trigger = trigger;
        this.runs = runs;
    }

    /** Takes a task's capture at the hand-over barrier; false when no rescale is capturing. */
    boolean capture(HandOff captured) {
        HandOverSavepoint h = capturing;
        if (h != null) {
            h.add(captured);
        }
        return h != null;
    }

    /** Whether a rescale's tasks are capturing their state now. */
    boolean capturing() {
        return capturing != null;
    }

    /** The job is closing: the savepoint still being written is abandoned. */
    void abandon() {
        abandonWrite.run();
    }

    /** See {@link RunningJob#rescale(Map, Duration, Duration)}. */
    RescaleView rescale(Map<String, Integer> changes, Duration timeout, Duration extraDowntime)
            throws InterruptedException {
        if (extraDowntime == null || extraDowntime.isNegative()) {
            throw new InvalidJobException(
                    "rescale of job '"
                            + jobName
                            + "': extra downtime is "
                            + extraDowntime
                            + "; use zero or more");
        }
        JobGraph before = runs.current().graph();
        JobGraph after = validate(changes, before);
        lifecycle.begin(JobLifecycle.Phase.RESCALING, runs.current().coordinator() != null);
        try {
            return handOver(before, after, timeout, extraDowntime);
        } finally {
            lifecycle.moveFrom(JobLifecycle.Phase.SETTLING, JobLifecycle.Phase.RUNNING);
        }
    }

    private RescaleView handOver(
            JobGraph before, JobGraph after, Duration timeout, Duration extraDowntime)
            throws InterruptedException {
        // One hand-over savepoint at a time: the previous one's captures are released once written.
        trigger.awaitAnchor();
        JobRun stopping = runs.current();
        CheckpointCoordinator coordinator = stopping.coordinator();
        HandOverSavepoint handOver = new HandOverSavepoint(jobName);
        capturing = handOver;
        // RocksDB stores stay open after their tasks end: the new stores and the savepoint are
        // made from them; closed once the savepoint's files are written.
        stopping.execution().keepStatesOpen();
        long stopped = System.nanoTime();
        CompletableFuture<Path> savepoint;
        long id;
        try {
            savepoint = trigger.take(SnapshotKind.HAND_OVER_SAVEPOINT);
            id = coordinator.pendingId();
            awaitCaptures(stopping, handOver, savepoint, id, timeout);
        } finally {
            capturing = null;
        }
        InterruptedException interrupted = stayDown(extraDowntime);
        Path dir = coordinator.directory(id);
        RestoredState restored = startHandedOver(before, after, dir, id, handOver, savepoint);
        handOver.writeInBackground(coordinator, id)
                .whenComplete((written, error) -> stopping.execution().closeStates());
        abandonWrite = () -> handOver.abandon(coordinator, id);
        if (interrupted != null) {
            throw interrupted;
        }
        RescaleView result =
                new RescaleView(
                        RescaleView.IN_PLACE,
                        dir.toAbsolutePath().toString(),
                        before.parallelism(),
                        after.parallelism(),
                        downtimeSince(stopped, timeout).toNanos() / 1e9,
                        restored.keyGroupsKept(),
                        restored.keyGroupsRead());
        awaitDurable(before, after, savepoint, timeout);
        return result;
    }

    /**
     * A rescale succeeds only once its savepoint is durable (every file written and fsynced, the
     * manifest committed): otherwise the new run is cancelled, the job runs again at its old
     * parallelism from its latest complete snapshot, and the rescale fails saying so.
     */
    private void awaitDurable(
            JobGraph before, JobGraph after, CompletableFuture<Path> savepoint, Duration timeout)
            throws InterruptedException {
        String cause;
        try {
            savepoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return;
        } catch (ExecutionException e) {
            cause = e.getCause() == null ? e.toString() : e.getCause().getMessage();
        } catch (TimeoutException e) {
            abandonWrite.run();
            cause = "it was not written within " + timeout;
        }
        runs.rollBackTo(before);
        String message =
                "rescale of job '"
                        + jobName
                        + "' to "
                        + after.parallelism()
                        + " rolled back: its savepoint was not written ("
                        + cause
                        + "); "
                        + FailedStop.restoredFrom(trigger.latestSnapshot())
                        + " at "
                        + before.parallelism();
        runs.warn(message);
        throw new SnapshotException(message);
    }

    /**
     * Waits until the stopped run's tasks have all captured their state at the hand-over barrier
     * and ended; otherwise discards the savepoint, runs the job again from its latest snapshot and
     * throws.
     */
    private void awaitCaptures(
            JobRun stopping,
            HandOverSavepoint handOver,
            CompletableFuture<Path> savepoint,
            long id,
            Duration timeout)
            throws InterruptedException {
        JobExecution execution = stopping.execution();
        if (!savepoint.isCompletedExceptionally()
                && execution.await(timeout.toMillis(), TimeUnit.MILLISECONDS)
                && handOver.consistent(execution.tasks().size(), id)) {
            return;
        }
        boolean timedOut = !savepoint.isCompletedExceptionally() && !execution.ended();
        if (stopping.coordinator().pendingId() == id) {
            stopping.coordinator()
                    .abortPending("its tasks did not all capture their state at the barrier");
        }
        String blocked =
                runs.restoreAfterFailedStop(
                        execution, timedOut ? Duration.ZERO : RunRecovery.DRAIN_AFTER_FAILURE);
        if (blocked == null) {
            execution.closeStatesAtEnd();
        } else if (execution.ended()) {
            execution.closeStates();
        }
        String cause =
                timedOut
                        ? "its barrier did not complete within " + timeout
                        : savepoint.isCompletedExceptionally()
                                ? savepoint.handle((p, e) -> e.getMessage()).join()
                                : "the tasks did not all stop at the barrier with their state"
                                        + " unchanged";
        String message =
                FailedStop.message(
                        "rescale of job '" + jobName + "'",
                        cause,
                        blocked,
                        trigger.latestSnapshot());
        runs.warn(message);
        throw new SnapshotException(message);
    }

    /**
     * Starts the new run on the captured state; if it cannot start at the new parallelism, starts
     * it at the old one on the same captures and throws.
     */
    private RestoredState startHandedOver(
            JobGraph before,
            JobGraph after,
            Path dir,
            long id,
            HandOverSavepoint handOver,
            CompletableFuture<Path> savepoint) {
        trigger.anchorOn(savepoint);
        RestoredState restored = null;
        try {
            restored =
                    HandOverRestore.restore(
                            dir, id, after, handOver.captured(), savepoint, config.stateBackend());
            runs.launch(after, restored);
            lifecycle.moveTo(JobLifecycle.Phase.SETTLING);
            return restored;
        } catch (RuntimeException e) {
            if (restored != null) {
                restored.closePreparedStores();
            }
            runs.launch(
                    before,
                    HandOverRestore.restore(
                            dir,
                            id,
                            before,
                            handOver.captured(),
                            savepoint,
                            config.stateBackend()));
            lifecycle.moveTo(JobLifecycle.Phase.RUNNING);
            throw rescaleFailed(before, after, e, "on the same state, handed over in memory");
        }
    }

    /**
     * The downtime of a rescale that stopped the sources at {@code stopped} (System.nanoTime):
     * until the new run's first record was processed by an operator after every task opened; if no
     * record comes within {@link #FIRST_RECORD_WAIT} (idle input), until every task opened.
     */
    private Duration downtimeSince(long stopped, Duration timeout) throws InterruptedException {
        JobExecution started = runs.current().execution();
        started.awaitOpened(timeout.toMillis(), TimeUnit.MILLISECONDS);
        long opened = System.nanoTime();
        boolean flowing =
                started.awaitFirstRecord(FIRST_RECORD_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return Duration.ofNanos((flowing ? System.nanoTime() : opened) - stopped);
    }

    /**
     * Waits (interruptibly, not busily) while the job is down; returns the interruption, if any.
     */
    private static InterruptedException stayDown(Duration extraDowntime) {
        try {
            TimeUnit.NANOSECONDS.sleep(extraDowntime.toNanos());
            return null;
        } catch (InterruptedException e) {
            return e;
        }
    }

    private JobGraph validate(Map<String, Integer> changes, JobGraph current) {
        changes.forEach(
                (op, p) -> {
                    if (current.operator(op) == null) {
                        throw new InvalidJobException(
                                "rescale of job '"
                                        + jobName
                                        + "': no operator '"
                                        + op
                                        + "'; the operators are "
                                        + current.parallelism().keySet());
                    }
                });
        return current.withParallelism(changes);
    }

    /** The error of a rescale that could not start at the new parallelism and went back. */
    private EngineException rescaleFailed(
            JobGraph before, JobGraph after, RuntimeException cause, String restartedHow) {
        return new EngineException(
                "rescale of job '"
                        + jobName
                        + "' to "
                        + after.parallelism()
                        + " failed ("
                        + cause.getMessage()
                        + "); restarted at "
                        + before.parallelism()
                        + " "
                        + restartedHow,
                cause);
    }
}
