package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.CheckpointWarmUp;
import dev.flowscale.engine.checkpoint.HandOff;
import dev.flowscale.engine.checkpoint.HandOverRestore;
import dev.flowscale.engine.checkpoint.Recovery;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.checkpoint.SnapshotReader;
import dev.flowscale.engine.checkpoint.StorageOwner;
import dev.flowscale.engine.checkpoint.TaskStateHandle;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.Partitioning;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.runner.api.CheckpointStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A job on the embedded engine, supervised across its runs: it takes periodic checkpoints, restarts
 * from the latest one when a task fails (within the restart strategy), takes savepoints on request,
 * and {@link #rescale rescales} by stop-with-savepoint and restore at the new parallelism. Poll
 * {@link #metrics()} for DS2's counters.
 */
public final class RunningJob implements AutoCloseable {

    /** The life of a job. */
    public enum Status {
        RUNNING,
        RESTARTING,
        RESCALING,
        FINISHED,
        STOPPED,
        FAILED,
        CANCELLED
    }

    private final JobConfig config;
    private final JobStorage durable;
    private final ScheduledExecutorService timer;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Object lock = new Object();
    private volatile JobGraph graph;
    private volatile JobExecution execution;
    private volatile CheckpointCoordinator coordinator;
    private volatile Status status = Status.RUNNING;
    private volatile Path lastSnapshot;
    private volatile Path restoredFrom;
    private volatile boolean fenced;
    private volatile boolean transitioning;
    private JobFailedException failure;
    private AutoCloseable meters = () -> {};
    private int runs;
    private int restarts;

    /** The hand-over rescale whose tasks are capturing their state now; null otherwise. */
    private volatile HandOverSavepoint handingOver;

    /**
     * The savepoint of the last hand-over rescale, complete once written: periodic checkpoints and
     * restarts wait for it (a restart before it is complete would go back further than the state
     * its sinks may already commit).
     */
    private volatile CompletableFuture<Path> anchor = CompletableFuture.completedFuture(null);

    /** Stops the background write of the last hand-over's savepoint (on close). */
    private volatile Runnable abandonAnchor = () -> {};

    /** How long a rescale waits for the first record at the new parallelism to end its downtime. */
    private static final Duration FIRST_RECORD_WAIT = Duration.ofSeconds(2);

    private RunningJob(JobGraph graph, JobConfig config) {
        this.durable =
                config.checkpointing() == null
                        ? null
                        : JobStorage.open(
                                config.checkpointing(),
                                graph.jobName(),
                                config.clock(),
                                config.meterRegistry(),
                                line -> System.err.println("warning: " + line));
        this.graph = graph;
        this.config = config;
        if (durable != null) {
            CheckpointWarmUp.startOnce(config.stateBackend());
        }
        this.timer =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t =
                                    new Thread(r, "flowscale-" + graph.jobName() + "-coordinator");
                            t.setDaemon(true);
                            return t;
                        });
    }

    public static RunningJob start(JobGraph graph, JobConfig config) {
        return start(graph, config, null);
    }

    /**
     * Starts the job, restoring its state from a checkpoint or savepoint directory when {@code
     * restoreFrom} is given. With snapshot storage configured, the job first takes the storage
     * (refused if another runner owns it, or if it cannot be written). The snapshot is read and
     * checked before any thread starts.
     */
    public static RunningJob start(JobGraph graph, JobConfig config, Path restoreFrom) {
        RunningJob job = new RunningJob(graph, config);
        try {
            job.launch(graph, restoreFrom == null ? null : SnapshotReader.read(restoreFrom, graph));
        } catch (RuntimeException e) {
            job.abandon();
            throw e;
        }
        job.schedulePeriodicCheckpoints();
        return job;
    }

    /**
     * Starts the job as a runner does: from the newest complete snapshot in its storage (checkpoint
     * or savepoint) or {@code requested}, whichever is newer (see {@link Recovery}); {@code log}
     * hears which one was chosen and why, and every stored snapshot skipped.
     */
    public static RunningJob recover(
            JobGraph graph, JobConfig config, Path requested, Consumer<String> log) {
        if (config.checkpointing() == null) {
            throw new InvalidJobException(
                    "job '"
                            + graph.jobName()
                            + "' has no snapshot storage to recover from; "
                            + "set JobConfig.withCheckpointing(...)");
        }
        RunningJob job = new RunningJob(graph, config);
        try {
            Recovery recovery = Recovery.choose(job.durable.storage(), requested, graph, log);
            log.accept(recovery.reason());
            job.launch(graph, recovery.restored());
        } catch (RuntimeException e) {
            job.abandon();
            throw e;
        }
        job.schedulePeriodicCheckpoints();
        return job;
    }

    /** Undoes a start that failed before any task ran. */
    private void abandon() {
        timer.shutdownNow();
        if (durable != null) {
            durable.close();
        }
    }

    private void launch(JobGraph toRun, RestoredState restored) {
        synchronized (lock) {
            graph = toRun;
            // Set before the run starts, and only for this run's tasks.
            AtomicReference<FinalCheckpoint> finalCheckpoint = new AtomicReference<>();
            JobExecution next =
                    new JobExecution(
                            toRun,
                            config,
                            graph.jobName() + "-run-" + (++runs),
                            snapshotSink(finalCheckpoint),
                            restored,
                            this::executionEnded);
            if (restored != null) {
                restoredFrom = restored.path();
                // A hand-over's savepoint becomes the last snapshot when it is written.
                lastSnapshot = restored.inMemory() ? lastSnapshot : restored.path();
            }
            coordinator =
                    durable == null
                            ? null
                            : durable.coordinator(
                                    toRun, next::triggerSources, timer, this::pinnedSnapshots);
            if (durable != null) {
                durable.stats().resetConsecutive();
            }
            execution = next;
            finalCheckpoint.set(finalCheckpointOf(next));
            rebindMeters(next);
            status = Status.RUNNING;
            next.start();
        }
    }

    private FinalCheckpoint finalCheckpointOf(JobExecution run) {
        if (durable == null || !run.commitsOnCheckpoints()) {
            return null;
        }
        return new FinalCheckpoint(
                run.sourceInstances(),
                () -> snapshot(false, false, false, false),
                run::stopSources,
                () -> execution == run && status == Status.RUNNING && !transitioning,
                timer);
    }

    private void rebindMeters(JobExecution next) {
        closeMeters();
        if (config.meterRegistry() != null) {
            meters = EngineMeters.bind(next, config);
        }
    }

    private SnapshotSink snapshotSink(AtomicReference<FinalCheckpoint> finalCheckpoint) {
        return new SnapshotSink() {
            @Override
            public Path directory(long id) {
                CheckpointCoordinator c = coordinator;
                return c == null ? null : c.directory(id);
            }

            @Override
            public void acknowledge(long id, TaskStateHandle handle) {
                CheckpointCoordinator c = coordinator;
                if (c != null) {
                    c.acknowledge(id, handle);
                }
            }

            @Override
            public void decline(long id, String task, Throwable cause) {
                CheckpointCoordinator c = coordinator;
                if (c != null) {
                    c.decline(id, task, cause);
                }
            }

            @Override
            public boolean sourceAtEnd() {
                FinalCheckpoint last = finalCheckpoint.get();
                if (last != null) {
                    last.sourceAtEnd();
                }
                return last != null;
            }

            @Override
            public void handOver(long id, HandOff captured) {
                HandOverSavepoint h = handingOver;
                if (h == null) {
                    decline(id, captured.describe(), new IllegalStateException("no hand-over"));
                } else {
                    h.add(captured);
                }
            }
        };
    }

    private Set<Path> pinnedSnapshots() {
        Path from = restoredFrom;
        return from == null ? Set.of() : Set.of(from);
    }

    private void schedulePeriodicCheckpoints() {
        if (durable == null || config.checkpointing().interval().isZero()) {
            return;
        }
        long every = config.checkpointing().interval().toMillis();
        timer.scheduleWithFixedDelay(this::periodicCheckpoint, every, every, TimeUnit.MILLISECONDS);
    }

    /** Never throws: an exception would cancel the schedule, and no checkpoint would follow. */
    private void periodicCheckpoint() {
        try {
            CheckpointCoordinator c = coordinator;
            if (status == Status.RUNNING
                    && !transitioning
                    && c != null
                    && !c.isPending()
                    && anchor.isDone()
                    && !execution.hasFinishedTasks()
                    && !execution.ended()) {
                snapshot(false, false, true, false);
            }
        } catch (RuntimeException e) {
            durable.stats().failed("checkpoint", true, e);
        }
    }

    /**
     * Counts a snapshot's outcome; fails the job over after too many periodic failures, or for good
     * if fenced.
     */
    private void account(boolean savepoint, boolean periodic, Path path, Throwable error) {
        CheckpointStats stats = durable.stats();
        if (error == null) {
            stats.completed(CheckpointStorage.idOf(path), path);
            return;
        }
        Throwable cause =
                error instanceof CompletionException && error.getCause() != null
                        ? error.getCause()
                        : error;
        int inARow = stats.failed(savepoint ? "savepoint" : "checkpoint", periodic, cause);
        if (cause instanceof StorageOwner.FencedException) {
            fenced = true;
            execution.fail(
                    new JobFailedException(
                            "job '" + name() + "' was fenced: " + cause.getMessage(), cause));
        } else if (periodic && inARow >= config.checkpointing().failoverAfter()) {
            execution.fail(
                    new JobFailedException(
                            "job '"
                                    + name()
                                    + "': "
                                    + inARow
                                    + " checkpoints failed in a row "
                                    + "(limit "
                                    + config.checkpointing().failoverAfter()
                                    + "), the last with: "
                                    + cause.getMessage(),
                            cause));
        }
    }

    /** Called by the last task of an execution to end. */
    private void executionEnded(JobExecution ended) {
        synchronized (lock) {
            if (ended != execution) {
                return;
            }
            if (coordinator != null && handingOver == null) {
                // A hand-over's savepoint is written after its tasks ended.
                coordinator.abortPending("the job's tasks ended");
            }
            if (transitioning) {
                return;
            }
            if (ended.failure() != null && !ended.cancelRequested()) {
                restartOrFail(ended.failure());
            } else {
                terminate(ended.cancelRequested() ? Status.CANCELLED : Status.FINISHED, null);
            }
        }
    }

    private void restartOrFail(JobFailedException cause) {
        if (fenced || restarts >= config.restart().maxAttempts()) {
            terminate(Status.FAILED, cause);
            return;
        }
        restarts++;
        status = Status.RESTARTING;
        timer.schedule(
                () -> restart(cause), config.restart().delay().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void restart(JobFailedException cause) {
        synchronized (lock) {
            if (status != Status.RESTARTING) {
                return;
            }
            try {
                awaitAnchor();
                Path from = latestSnapshot();
                launch(graph, from == null ? null : SnapshotReader.read(from, graph));
            } catch (EngineException e) {
                e.addSuppressed(cause);
                terminate(
                        Status.FAILED,
                        new JobFailedException(
                                "job '"
                                        + graph.jobName()
                                        + "' could not restart: "
                                        + e.getMessage(),
                                e));
            }
        }
    }

    /**
     * Waits (up to the snapshot timeout) until the last hand-over's savepoint is written or has
     * failed, so that the latest snapshot is known.
     */
    private void awaitAnchor() {
        try {
            anchor.get(config.checkpointing().timeout().toMillis(), TimeUnit.MILLISECONDS);
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
    public Path latestSnapshot() {
        Path checkpoint =
                durable == null ? null : durable.storage().latestCheckpoint().orElse(null);
        Path last = lastSnapshot;
        if (checkpoint == null) {
            return last;
        }
        return last == null || idOf(checkpoint) >= idOf(last) ? checkpoint : last;
    }

    private static long idOf(Path snapshot) {
        try {
            return SnapshotReader.metadata(snapshot).checkpointId();
        } catch (EngineException e) {
            return -1;
        }
    }

    private void terminate(Status finalStatus, JobFailedException cause) {
        status = finalStatus;
        failure = cause;
        if (durable != null) {
            durable.release();
        }
        terminated.countDown();
    }

    public JobGraph graph() {
        return graph;
    }

    public JobConfig config() {
        return config;
    }

    public String name() {
        return graph.jobName();
    }

    /** The tasks of the current execution (for tests in this package). */
    List<Task> tasks() {
        return execution.tasks();
    }

    public Status status() {
        return status;
    }

    /** How many times the job restarted after a failure. */
    public int restarts() {
        return restarts;
    }

    /** Consistent cumulative counters of every instance of the current run. */
    public JobMetricsSnapshot metrics() {
        return execution.metrics();
    }

    /** What the job's snapshots have done so far; null without snapshot storage. */
    public CheckpointStatus checkpointStatus() {
        return durable == null ? null : durable.stats().status();
    }

    /** Takes a checkpoint; completes with its directory. */
    public CompletableFuture<Path> triggerCheckpoint() {
        return snapshot(false, false, false, false);
    }

    /** Takes a savepoint while the job keeps running; completes with its directory. */
    public CompletableFuture<Path> triggerSavepoint() {
        return snapshot(true, false, false, false);
    }

    private CompletableFuture<Path> snapshot(
            boolean savepoint, boolean stopAfter, boolean periodic, boolean handOver) {
        CheckpointCoordinator c = coordinator;
        if (c == null) {
            return CompletableFuture.failedFuture(
                    new SnapshotException(
                            "job '"
                                    + name()
                                    + "' has no snapshot storage; "
                                    + "set JobConfig.withCheckpointing(...)"));
        }
        if (execution.hasFinishedTasks() || execution.ended()) {
            return CompletableFuture.failedFuture(
                    new SnapshotException(
                            "job '"
                                    + name()
                                    + "' cannot take a snapshot: "
                                    + "some of its tasks have finished"));
        }
        CompletableFuture<Path> result =
                c.trigger(savepoint, stopAfter, handOver)
                        .whenComplete((path, error) -> account(savepoint, periodic, path, error));
        JobExecution snapshotted = execution;
        return result.thenApply(
                path -> {
                    lastSnapshot = path;
                    // Off the completing task's thread: a sink's commit may wait on the network.
                    long id = CheckpointStorage.idOf(path);
                    try {
                        timer.execute(() -> snapshotted.checkpointComplete(id));
                    } catch (RejectedExecutionException closing) {
                        // The job is closing: what the snapshot prepared is finished on restore.
                    }
                    return path;
                });
    }

    /**
     * Takes a savepoint, stops the sources right after their barrier, drains and stops every task,
     * and returns the savepoint's directory. The job ends with status STOPPED.
     */
    public Path stopWithSavepoint(Duration timeout) throws InterruptedException {
        synchronized (lock) {
            checkCanTransition();
            transitioning = true;
        }
        try {
            Path savepoint = stopCurrent(timeout);
            terminate(Status.STOPPED, null);
            return savepoint;
        } finally {
            transitioning = false;
        }
    }

    /**
     * Rescales the job, with keyed state moved by key group: the tasks hand their state over at a
     * stop barrier (on the heap in memory; on RocksDB each new instance starts from a hard-linked
     * checkpoint of the stopped store that overlaps it most and copies in only the key groups it
     * gains) and the savepoint is written afterwards, while the new run works. Parallelism changes
     * are checked before anything stops. If the job cannot start at the new parallelism it is
     * restarted at the old one from the same state and the error is thrown.
     */
    public RescaleResult rescale(Map<String, Integer> changes, Duration timeout)
            throws InterruptedException {
        return rescale(changes, timeout, Duration.ZERO);
    }

    /**
     * {@link #rescale(Map, Duration)}, with the job kept stopped for {@code extraDowntime} after
     * its savepoint and before the restore: it emulates on one machine what a rescale costs on a
     * cluster (a pod restart), so the sources owe that time's records and the downtime includes it.
     * When interrupted during that wait the job is restored at once and the interruption is thrown.
     */
    public RescaleResult rescale(
            Map<String, Integer> changes, Duration timeout, Duration extraDowntime)
            throws InterruptedException {
        if (extraDowntime == null || extraDowntime.isNegative()) {
            throw new InvalidJobException(
                    "rescale of job '"
                            + name()
                            + "': extra downtime is "
                            + extraDowntime
                            + "; use zero or more");
        }
        JobGraph before = graph;
        JobGraph after = validate(changes, before);
        synchronized (lock) {
            checkCanTransition();
            transitioning = true;
            status = Status.RESCALING;
        }
        try {
            return rescaleByHandOver(before, after, timeout, extraDowntime);
        } finally {
            transitioning = false;
        }
    }

    /**
     * The downtime of a rescale that stopped the sources at {@code stopped} (System.nanoTime):
     * until the new run's first record was processed by an operator after every task opened; if no
     * record comes within {@link #FIRST_RECORD_WAIT} (idle input), until every task opened.
     */
    private Duration downtimeSince(long stopped, Duration timeout) throws InterruptedException {
        JobExecution started = execution;
        started.awaitOpened(timeout.toMillis(), TimeUnit.MILLISECONDS);
        long opened = System.nanoTime();
        boolean flowing =
                started.awaitFirstRecord(FIRST_RECORD_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return Duration.ofNanos((flowing ? System.nanoTime() : opened) - stopped);
    }

    /**
     * A rescale inside this process: the tasks capture their state at a stop barrier instead of
     * writing it, every key group goes to its new owner (heap: in memory; RocksDB: see {@code
     * RocksDbHandOver}), and the new run starts; the savepoint is then written from the captures in
     * the background. The job's durable state stays its last complete snapshot until that savepoint
     * is complete (see docs/state-backends.md, "Hand-over rescales").
     */
    private RescaleResult rescaleByHandOver(
            JobGraph before, JobGraph after, Duration timeout, Duration extraDowntime)
            throws InterruptedException {
        // One hand-over savepoint at a time: the previous one's captures are released once written.
        awaitAnchor();
        JobExecution stopping = execution;
        CheckpointCoordinator stoppingCoordinator = coordinator;
        HandOverSavepoint handOver = new HandOverSavepoint(name());
        handingOver = handOver;
        // RocksDB stores stay open after their tasks end: the new stores and the savepoint are
        // made from them; closed once the savepoint's files are written.
        stopping.keepStatesOpen();
        long stopped = System.nanoTime();
        CompletableFuture<Path> savepoint;
        long id;
        try {
            savepoint = snapshot(true, true, false, true);
            id = stoppingCoordinator.pendingId();
            awaitCaptures(stopping, stoppingCoordinator, handOver, savepoint, id, timeout);
        } finally {
            handingOver = null;
        }
        InterruptedException interrupted = stayDown(extraDowntime);
        Path dir = stoppingCoordinator.directory(id);
        RestoredState restored = startHandedOver(before, after, dir, id, handOver, savepoint);
        handOver.writeInBackground(stoppingCoordinator, id)
                .whenComplete((written, error) -> stopping.closeStates());
        abandonAnchor = () -> handOver.abandon(stoppingCoordinator, id);
        if (interrupted != null) {
            throw interrupted;
        }
        return new RescaleResult(
                dir,
                before.parallelism(),
                after.parallelism(),
                downtimeSince(stopped, timeout),
                restored.keyGroupsKept(),
                restored.keyGroupsRead());
    }

    /**
     * Waits until the stopped run's tasks have all captured their state at the hand-over barrier
     * and ended; otherwise discards the savepoint, runs the job again from its latest snapshot and
     * throws.
     */
    private void awaitCaptures(
            JobExecution stopping,
            CheckpointCoordinator c,
            HandOverSavepoint handOver,
            CompletableFuture<Path> savepoint,
            long id,
            Duration timeout)
            throws InterruptedException {
        int tasks = stopping.tasks().size();
        if (!savepoint.isCompletedExceptionally()
                && stopping.await(timeout.toMillis(), TimeUnit.MILLISECONDS)
                && handOver.consistent(tasks, id)) {
            return;
        }
        if (c.pendingId() == id) {
            c.abortPending("its tasks did not all capture their state at the barrier");
        }
        recoverFromFailedStop(stopping);
        stopping.closeStates();
        String cause =
                savepoint.isCompletedExceptionally()
                        ? savepoint.handle((p, e) -> e.getMessage()).join()
                        : "the tasks did not all stop at the barrier with their state unchanged";
        throw new SnapshotException(
                "rescale of job '"
                        + name()
                        + "' failed: "
                        + cause
                        + "; the job keeps running from its latest snapshot");
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
        anchor = savepoint;
        RestoredState restored = null;
        try {
            restored =
                    HandOverRestore.restore(
                            dir, id, after, handOver.captured(), savepoint, config.stateBackend());
            launch(after, restored);
            return restored;
        } catch (RuntimeException e) {
            if (restored != null) {
                restored.closePreparedStores();
            }
            launch(
                    before,
                    HandOverRestore.restore(
                            dir,
                            id,
                            before,
                            handOver.captured(),
                            savepoint,
                            config.stateBackend()));
            throw rescaleFailed(before, after, e, "on the same state, handed over in memory");
        }
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
                                        + name()
                                        + "': no operator '"
                                        + op
                                        + "'; the operators are "
                                        + current.parallelism().keySet());
                    }
                });
        return current.withParallelism(changes);
    }

    private void checkCanTransition() {
        if (transitioning) {
            throw new EngineException(
                    "job '"
                            + name()
                            + "' is already being rescaled or stopped; wait for it to finish");
        }
        if (status != Status.RUNNING || coordinator == null) {
            throw new EngineException(
                    "job '"
                            + name()
                            + "' cannot be stopped with a savepoint: it is "
                            + status
                            + (coordinator == null
                                    ? " and has no snapshot storage (set JobConfig.withCheckpointing)"
                                    : ""));
        }
    }

    private Path stopCurrent(Duration timeout) throws InterruptedException {
        JobExecution current = execution;
        CompletableFuture<Path> savepoint = snapshot(true, true, false, false);
        try {
            Path path = savepoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!current.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new EngineException(
                        "job '"
                                + name()
                                + "' did not drain within "
                                + timeout
                                + " after its savepoint");
            }
            return path;
        } catch (ExecutionException | TimeoutException e) {
            recoverFromFailedStop(current);
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new SnapshotException(
                    "stop-with-savepoint of job '"
                            + name()
                            + "' failed: "
                            + cause.getMessage()
                            + "; the job keeps running from its latest snapshot",
                    cause);
        }
    }

    /**
     * The sources may have stopped after a barrier whose savepoint then failed: run again from the
     * last snapshot.
     */
    private void recoverFromFailedStop(JobExecution current) throws InterruptedException {
        if (current.await(5, TimeUnit.SECONDS)) {
            Path from = latestSnapshot();
            launch(graph, from == null ? null : SnapshotReader.read(from, graph));
        }
    }

    /** The error of a rescale that could not start at the new parallelism and went back. */
    private EngineException rescaleFailed(
            JobGraph before, JobGraph after, RuntimeException cause, String restartedHow) {
        return new EngineException(
                "rescale of job '"
                        + name()
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

    /** Waits until every task of the current run has opened (restored state decoded). */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        return execution.awaitOpened(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks the sources to stop; the records in flight drain and the job finishes. */
    public void stop() {
        execution.stopSources();
    }

    /** Stops every task at once; records in flight are dropped. */
    public void cancel() {
        synchronized (lock) {
            if (status == Status.RESTARTING) {
                terminate(Status.CANCELLED, null);
            }
            execution.cancel();
        }
    }

    /** Waits for the end; throws {@link JobFailedException} if the job failed for good. */
    public Status await() throws InterruptedException {
        terminated.await();
        return finalStatus();
    }

    /** Waits up to {@code timeout}; returns whether the job ended, throws if it failed. */
    public boolean await(Duration timeout) throws InterruptedException {
        if (!terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        finalStatus();
        return true;
    }

    private Status finalStatus() {
        JobFailedException failed = failure;
        if (failed != null) {
            throw new JobFailedException(failed.getMessage(), failed.getCause());
        }
        return status;
    }

    /** Cancels the job if it still runs, waits for its threads and unregisters its meters. */
    @Override
    public void close() throws Exception {
        if (terminated.getCount() > 0) {
            cancel();
        }
        execution.join(TimeUnit.SECONDS.toMillis(10));
        abandonAnchor.run();
        timer.shutdownNow();
        closeMeters();
        if (durable != null) {
            durable.close();
        }
    }

    private void closeMeters() {
        try {
            meters.close();
        } catch (Exception e) {
            // Unregistering meters cannot fail in a way the caller could act on.
        }
    }

    /**
     * The event time up to which every instance of {@code operator} has processed its input and
     * fired its event-time timers: {@link Long#MAX_VALUE} once every source has finished (ended, or
     * read every split to its end) and all it sent has gone through {@code operator}, so a bounded
     * job's results are complete there even while its sources stay up. {@link Long#MIN_VALUE}
     * before the first watermark or in a job without event time.
     *
     * @throws IllegalArgumentException if {@code operator} is not an operator with input
     */
    public long processedWatermark(String operator) {
        return execution
                .processedWatermark(operator)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "operator '"
                                                + operator
                                                + "' of job '"
                                                + graph.jobName()
                                                + "' is not an operator that takes input; use"
                                                + " one of its non-source operators"));
    }

    /** Records queued in all input gates now; bounded by the sum of channel capacities. */
    public long queuedRecords() {
        return execution.queuedRecords();
    }

    public int queuedBatches() {
        return execution.queuedBatches();
    }

    /** The most records the channels of this job can hold: channels × capacity × batch size. */
    public long channelCapacityRecords() {
        long channels = 0;
        for (var edge : graph.edges()) {
            int to = graph.operator(edge.to()).parallelism();
            channels +=
                    edge.partitioning() == Partitioning.FORWARD
                            ? to
                            : (long) to * graph.operator(edge.from()).parallelism();
        }
        return channels * config.channelCapacity() * config.batchSize();
    }
}
