package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.SnapshotException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stop-with-savepoint: a savepoint whose barrier stops the sources, then the tasks drain and the
 * job ends STOPPED. When the savepoint fails, the job runs again from its latest snapshot.
 */
final class SavepointStop {
    private final String jobName;
    private final JobLifecycle lifecycle;
    private final CheckpointTrigger trigger;
    private final JobRuns runs;

    SavepointStop(String jobName, JobLifecycle lifecycle, CheckpointTrigger trigger, JobRuns runs) {
        this.jobName = jobName;
        this.lifecycle = lifecycle;
        this.trigger = trigger;
        this.runs = runs;
    }

    /** See {@link RunningJob#stopWithSavepoint}. */
    Path stop(Duration timeout) throws InterruptedException {
        lifecycle.begin(JobLifecycle.Phase.STOPPING, runs.current().coordinator() != null);
        try {
            Path savepoint = stopCurrent(timeout);
            lifecycle.moveTo(JobLifecycle.Phase.STOPPED);
            return savepoint;
        } finally {
            // A stop that neither ended the job nor ran it again leaves it running as it was.
            lifecycle.moveFrom(JobLifecycle.Phase.STOPPING, JobLifecycle.Phase.RUNNING);
        }
    }

    private Path stopCurrent(Duration timeout) throws InterruptedException {
        JobRun current = runs.current();
        JobExecution execution = current.execution();
        CompletableFuture<Path> savepoint = trigger.take(SnapshotKind.STOP_SAVEPOINT);
        Path path;
        try {
            path = savepoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            boolean timedOut = e instanceof TimeoutException;
            if (timedOut) {
                current.coordinator().abortPending("the stop did not complete within " + timeout);
            }
            String blocked =
                    runs.restoreAfterFailedStop(
                            execution, timedOut ? Duration.ZERO : RunRecovery.DRAIN_AFTER_FAILURE);
            Throwable cause = timedOut ? e : e.getCause();
            String message =
                    FailedStop.message(
                            "stop-with-savepoint of job '" + jobName + "'",
                            timedOut
                                    ? "its barrier did not complete within " + timeout
                                    : cause.getMessage(),
                            blocked,
                            trigger.latestSnapshot());
            runs.warn(message);
            throw new SnapshotException(message, cause);
        }
        awaitDrained(execution, path, timeout);
        return path;
    }

    /**
     * The savepoint is complete: the job is stopped even if it does not drain in time (its tasks
     * are then cancelled; the savepoint holds its state).
     */
    private void awaitDrained(JobExecution execution, Path savepoint, Duration timeout)
            throws InterruptedException {
        if (execution.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
        }
        String blocked = BlockedTasks.describe(execution);
        execution.cancel();
        execution.await(RunRecovery.CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        runs.warn(
                "job '"
                        + jobName
                        + "' did not drain within "
                        + timeout
                        + " after its savepoint "
                        + savepoint
                        + "; its tasks were interrupted and it stops with that savepoint."
                        + " Blocked: "
                        + blocked);
    }
}
