package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.JobFailedException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The life cycle of a {@link RunningJob} as one state machine: every change of {@link Phase} goes
 * through {@link #moveTo}, whose switch lists each transition the job can make. A change is atomic;
 * only the terminal hook runs after it, outside this object's lock.
 */
final class JobLifecycle {

    /** Where a job is in its life; users see {@link RunningJob.Status} ({@link #status}). */
    enum Phase {
        /** The current run's tasks work; periodic checkpoints are taken; a failure restarts. */
        RUNNING,
        /** The run failed; the next one starts from the latest snapshot after the restart delay. */
        RESTARTING,
        /** A stop-with-savepoint is under way: its barrier travels, then the tasks drain. */
        STOPPING,
        /** A rescale stops the run at a hand-over barrier; the tasks capture their state. */
        RESCALING,
        /**
         * The run at the new parallelism has started; the rescale waits for its first record (the
         * end of the downtime) and for its savepoint to be durable before it reports success, and
         * rolls back (RESCALING again) if that savepoint is not written.
         */
        SETTLING,
        /** Another runner took the storage: the run is being failed and will not restart. */
        FENCED,
        /** Every task ended after its input: terminal. */
        FINISHED,
        /** Stopped with a savepoint: terminal. */
        STOPPED,
        /** Failed for good (restarts exhausted, fenced, or no restart possible): terminal. */
        FAILED,
        /** Cancelled: terminal. */
        CANCELLED;

        boolean terminal() {
            return this == FINISHED || this == STOPPED || this == FAILED || this == CANCELLED;
        }

        /** A stop or rescale is in progress: no checkpoint, no second control operation. */
        boolean transitioning() {
            return this == STOPPING || this == RESCALING || this == SETTLING;
        }
    }

    private final String jobName;
    private final Runnable onTerminal;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private Phase phase = Phase.RUNNING;
    private JobFailedException failure;

    /**
     * @param onTerminal runs once the job reached a terminal phase, before anyone waiting on {@link
     *     #await} wakes (it releases the job's storage)
     */
    JobLifecycle(String jobName, Runnable onTerminal) {
        this.jobName = jobName;
        this.onTerminal = onTerminal;
    }

    /**
     * Moves to {@code to} if the current phase allows it, and says whether it did. A terminal phase
     * ends the job with {@code cause} (null unless FAILED).
     */
    boolean moveTo(Phase to, JobFailedException cause) {
        return move(null, to, cause);
    }

    /** Moves from {@code from} to {@code to} only if the job is still in {@code from}. */
    boolean moveFrom(Phase from, Phase to) {
        return move(from, to, null);
    }

    private boolean move(Phase from, Phase to, JobFailedException cause) {
        if (!change(from, to, cause)) {
            return false;
        }
        if (to.terminal()) {
            onTerminal.run();
            terminated.countDown();
        }
        return true;
    }

    private synchronized boolean change(Phase from, Phase to, JobFailedException cause) {
        if (from != null && phase != from) {
            return false;
        }
        boolean allowed =
                switch (phase) {
                    // Fails over, is fenced, starts a stop or a rescale, or ends.
                    case RUNNING -> to != Phase.RUNNING && to != Phase.SETTLING;
                    // The next run started, or the job was cancelled or could not restart.
                    case RESTARTING -> to == Phase.RUNNING || to.terminal();
                    // Stopped, or the stop failed and the job runs again, or fenced meanwhile.
                    case STOPPING -> to == Phase.RUNNING || to == Phase.FENCED || to.terminal();
                    // The next run started (at the new parallelism, SETTLING; or back at the
                    // old one after a failure, RUNNING), or fenced meanwhile.
                    case RESCALING ->
                            to == Phase.SETTLING
                                    || to == Phase.RUNNING
                                    || to == Phase.FENCED
                                    || to.terminal();
                    // The rescale is done (RUNNING), the new run failed (RESTARTING), or its
                    // savepoint was not written and the rescale rolls back (RESCALING).
                    case SETTLING ->
                            to == Phase.RUNNING
                                    || to == Phase.RESTARTING
                                    || to == Phase.RESCALING
                                    || to == Phase.FENCED
                                    || to.terminal();
                    // A fenced job only fails.
                    case FENCED -> to == Phase.FAILED;
                    case FINISHED, STOPPED, FAILED, CANCELLED -> false;
                };
        if (!allowed) {
            return false;
        }
        phase = to;
        failure = to.terminal() ? cause : failure;
        return true;
    }

    /** {@link #moveTo(Phase, JobFailedException)} to a phase that is not a failure. */
    boolean moveTo(Phase to) {
        return moveTo(to, null);
    }

    /**
     * Starts a stop or a rescale ({@code to}); refused with a message naming why when another one
     * is under way or the job does not run.
     */
    synchronized void begin(Phase to, boolean hasStorage) {
        if (phase.transitioning()) {
            throw new EngineException(
                    "job '"
                            + jobName
                            + "' is already being rescaled or stopped; wait for it to finish");
        }
        if (phase != Phase.RUNNING || !hasStorage) {
            throw new EngineException(
                    "job '"
                            + jobName
                            + "' cannot be stopped with a savepoint: it is "
                            + status()
                            + (hasStorage
                                    ? ""
                                    : " and has no snapshot storage (set JobConfig.withCheckpointing)"));
        }
        moveTo(to, null);
    }

    synchronized Phase phase() {
        return phase;
    }

    /** The status users see: a stop, the end of a rescale and fencing read as RUNNING. */
    synchronized RunningJob.Status status() {
        return switch (phase) {
            case RUNNING, STOPPING, SETTLING, FENCED -> RunningJob.Status.RUNNING;
            case RESTARTING -> RunningJob.Status.RESTARTING;
            case RESCALING -> RunningJob.Status.RESCALING;
            case FINISHED -> RunningJob.Status.FINISHED;
            case STOPPED -> RunningJob.Status.STOPPED;
            case FAILED -> RunningJob.Status.FAILED;
            case CANCELLED -> RunningJob.Status.CANCELLED;
        };
    }

    boolean ended() {
        return terminated.getCount() == 0;
    }

    /** Waits for a terminal phase; throws {@link JobFailedException} if the job failed. */
    RunningJob.Status await() throws InterruptedException {
        terminated.await();
        return finalStatus();
    }

    /** Waits up to {@code timeout}; returns whether the job ended, throws if it failed. */
    boolean await(Duration timeout) throws InterruptedException {
        if (!terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        finalStatus();
        return true;
    }

    private synchronized RunningJob.Status finalStatus() {
        if (failure != null) {
            throw new JobFailedException(failure.getMessage(), failure.getCause());
        }
        return status();
    }
}
