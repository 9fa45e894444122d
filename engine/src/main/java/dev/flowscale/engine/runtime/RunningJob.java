package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.CheckpointWarmUp;
import dev.flowscale.engine.checkpoint.Recovery;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.checkpoint.SnapshotReader;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.Partitioning;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.runner.api.CheckpointStatus;
import dev.flowscale.runner.api.RescaleView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private final Object lock = new Object();
    private final JobLifecycle lifecycle;
    private final CheckpointTrigger trigger;
    private final HandOverRescale rescaler;
    private final SavepointStop stopper;

    private volatile JobRun run;
    private volatile Path restoredFrom;
    private AutoCloseable meters = () -> {};
    private int runs;
    private int restarts;

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
        this.config = config;
        this.run = new JobRun(graph, null, null);
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
        String name = graph.jobName();
        this.lifecycle = new JobLifecycle(name, this::releaseStorage);
        this.trigger = new CheckpointTrigger(name, durable, timer, lifecycle, () -> run);
        JobRuns runsPort = new RunRecovery(lifecycle, trigger, () -> run, this::launch);
        this.rescaler = new HandOverRescale(name, config, lifecycle, trigger, runsPort);
        this.stopper = new SavepointStop(name, lifecycle, trigger, runsPort);
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
            job.launch(
                    graph,
                    restoreFrom == null
                            ? null
                            : SnapshotReader.read(restoreFrom, graph, job.trigger.signing()));
        } catch (RuntimeException e) {
            job.abandon();
            throw e;
        }
        job.trigger.schedulePeriodic();
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
        job.trigger.schedulePeriodic();
        return job;
    }

    /** Undoes a start that failed before any task ran. */
    private void abandon() {
        timer.shutdownNow();
        if (durable != null) {
            durable.close();
        }
    }

    /** Starts a run of {@code toRun}; the caller moves the life cycle. */
    private void launch(JobGraph toRun, RestoredState restored) {
        synchronized (lock) {
            RunSnapshotSink sink = new RunSnapshotSink(() -> run, rescaler);
            JobExecution next =
                    new JobExecution(
                            toRun,
                            config,
                            toRun.jobName() + "-run-" + (++runs),
                            sink,
                            restored,
                            this::executionEnded);
            if (restored != null) {
                restoredFrom = restored.path();
                if (!restored.inMemory()) {
                    // A hand-over's savepoint becomes the last snapshot when it is written.
                    trigger.restoredFrom(restored.path());
                }
            }
            CheckpointCoordinator coordinator =
                    durable == null
                            ? null
                            : durable.coordinator(
                                    toRun, next::triggerSources, timer, this::pinnedSnapshots);
            run = new JobRun(toRun, next, coordinator);
            trigger.runStarted();
            sink.finalCheckpoint.set(finalCheckpointOf(next));
            rebindMeters(next);
            next.start();
        }
    }

    private FinalCheckpoint finalCheckpointOf(JobExecution execution) {
        if (durable == null || !execution.commitsOnCheckpoints()) {
            return null;
        }
        return new FinalCheckpoint(
                execution.sourceInstances(),
                () -> trigger.take(SnapshotKind.CHECKPOINT),
                execution::stopSources,
                () ->
                        run.execution() == execution
                                && lifecycle.phase() == JobLifecycle.Phase.RUNNING,
                timer);
    }

    private void rebindMeters(JobExecution next) {
        closeMeters();
        if (config.meterRegistry() != null) {
            meters = EngineMeters.bind(next, config);
        }
    }

    private Set<Path> pinnedSnapshots() {
        Path from = restoredFrom;
        return from == null ? Set.of() : Set.of(from);
    }

    /** Called by the last task of an execution to end. */
    private void executionEnded(JobExecution ended) {
        synchronized (lock) {
            if (ended != run.execution()) {
                return;
            }
            CheckpointCoordinator coordinator = run.coordinator();
            if (coordinator != null && !rescaler.capturing()) {
                // A hand-over's savepoint is written after its tasks ended.
                coordinator.abandonPending("the job's tasks ended");
            }
            JobLifecycle.Phase phase = lifecycle.phase();
            if (phase == JobLifecycle.Phase.STOPPING || phase == JobLifecycle.Phase.RESCALING) {
                return; // the stop or rescale decides what follows
            }
            if (ended.failure() != null && !ended.cancelRequested()) {
                restartOrFail(ended.failure());
            } else {
                lifecycle.moveTo(
                        ended.cancelRequested()
                                ? JobLifecycle.Phase.CANCELLED
                                : JobLifecycle.Phase.FINISHED);
            }
        }
    }

    private void restartOrFail(JobFailedException cause) {
        if (lifecycle.phase() == JobLifecycle.Phase.FENCED
                || restarts >= config.restart().maxAttempts()) {
            lifecycle.moveTo(JobLifecycle.Phase.FAILED, cause);
            return;
        }
        restarts++;
        lifecycle.moveTo(JobLifecycle.Phase.RESTARTING);
        timer.schedule(
                () -> restart(cause), config.restart().delay().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void restart(JobFailedException cause) {
        synchronized (lock) {
            if (lifecycle.phase() != JobLifecycle.Phase.RESTARTING) {
                return;
            }
            try {
                trigger.awaitAnchor();
                JobGraph graph = run.graph();
                launch(graph, trigger.restoreLatest(graph));
                lifecycle.moveTo(JobLifecycle.Phase.RUNNING);
            } catch (EngineException e) {
                e.addSuppressed(cause);
                lifecycle.moveTo(
                        JobLifecycle.Phase.FAILED,
                        new JobFailedException(
                                "job '" + name() + "' could not restart: " + e.getMessage(), e));
            }
        }
    }

    private void releaseStorage() {
        if (durable != null) {
            durable.release();
        }
    }

    /**
     * The newest complete snapshot this job took or started from: its latest checkpoint, or the
     * savepoint it last took (a stopped job's stop savepoint) or restored from; null when none.
     */
    public Path latestSnapshot() {
        return trigger.latestSnapshot();
    }

    public JobGraph graph() {
        return run.graph();
    }

    public JobConfig config() {
        return config;
    }

    public String name() {
        return run.graph().jobName();
    }

    /** The tasks of the current execution (for tests in this package). */
    List<Task> tasks() {
        return run.execution().tasks();
    }

    public Status status() {
        return lifecycle.status();
    }

    /** How many times the job restarted after a failure. */
    public int restarts() {
        return restarts;
    }

    /** Consistent cumulative counters of every instance of the current run. */
    public JobMetricsSnapshot metrics() {
        return run.execution().metrics();
    }

    /** What the job's snapshots have done so far; null without snapshot storage. */
    public CheckpointStatus checkpointStatus() {
        return durable == null ? null : durable.stats().status();
    }

    /** Takes a checkpoint; completes with its directory. */
    public CompletableFuture<Path> triggerCheckpoint() {
        return trigger.take(SnapshotKind.CHECKPOINT);
    }

    /** Takes a savepoint while the job keeps running; completes with its directory. */
    public CompletableFuture<Path> triggerSavepoint() {
        return trigger.take(SnapshotKind.SAVEPOINT);
    }

    /**
     * Takes a savepoint, stops the sources right after their barrier, drains and stops every task,
     * and returns the savepoint's directory. The job ends with status STOPPED.
     */
    public Path stopWithSavepoint(Duration timeout) throws InterruptedException {
        return stopper.stop(timeout);
    }

    /**
     * Rescales the job, with keyed state moved by key group: the tasks hand their state over at a
     * stop barrier (on the heap in memory; on RocksDB each new instance starts from a hard-linked
     * checkpoint of the stopped store that overlaps it most and copies in only the key groups it
     * gains) and the savepoint is written afterwards, while the new run works; the rescale returns
     * once that savepoint is durable. Parallelism changes are checked before anything stops. If the
     * job cannot start at the new parallelism it is restarted at the old one from the same state
     * and the error is thrown; if the savepoint is not written, or the barrier does not complete
     * within {@code timeout}, the job runs again at the old parallelism from its latest complete
     * snapshot and a {@link dev.flowscale.engine.checkpoint.SnapshotException} says so.
     */
    public RescaleView rescale(Map<String, Integer> changes, Duration timeout)
            throws InterruptedException {
        return rescale(changes, timeout, Duration.ZERO);
    }

    /**
     * {@link #rescale(Map, Duration)}, with the job kept stopped for {@code extraDowntime} after
     * its savepoint and before the restore: it emulates on one machine what a rescale costs on a
     * cluster (a pod restart), so the sources owe that time's records and the downtime includes it.
     * When interrupted during that wait the job is restored at once and the interruption is thrown.
     */
    public RescaleView rescale(
            Map<String, Integer> changes, Duration timeout, Duration extraDowntime)
            throws InterruptedException {
        return rescaler.rescale(changes, timeout, extraDowntime);
    }

    /** Waits until every task of the current run has opened (restored state decoded). */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        return run.execution().awaitOpened(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks the sources to stop; the records in flight drain and the job finishes. */
    public void stop() {
        run.execution().stopSources();
    }

    /** Stops every task at once; records in flight are dropped. */
    public void cancel() {
        synchronized (lock) {
            lifecycle.moveFrom(JobLifecycle.Phase.RESTARTING, JobLifecycle.Phase.CANCELLED);
            run.execution().cancel();
        }
    }

    /** Waits for the end; throws {@link JobFailedException} if the job failed for good. */
    public Status await() throws InterruptedException {
        return lifecycle.await();
    }

    /** Waits up to {@code timeout}; returns whether the job ended, throws if it failed. */
    public boolean await(Duration timeout) throws InterruptedException {
        return lifecycle.await(timeout);
    }

    /**
     * How long {@link #close()} waits for the job's threads; a thread that ignores interruption is
     * left behind after it.
     */
    public static final Duration CLOSE_JOIN = Duration.ofSeconds(10);

    /** Cancels the job if it still runs, waits for its threads and unregisters its meters. */
    @Override
    public void close() throws Exception {
        if (!lifecycle.ended()) {
            cancel();
        }
        run.execution().join(CLOSE_JOIN.toMillis());
        rescaler.abandon();
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
        return run.execution()
                .processedWatermark(operator)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "operator '"
                                                + operator
                                                + "' of job '"
                                                + name()
                                                + "' is not an operator that takes input; use"
                                                + " one of its non-source operators"));
    }

    /** Records queued in all input gates now; bounded by the sum of channel capacities. */
    public long queuedRecords() {
        return run.execution().queuedRecords();
    }

    public int queuedBatches() {
        return run.execution().queuedBatches();
    }

    /** The most records the channels of this job can hold: channels × capacity × batch size. */
    public long channelCapacityRecords() {
        JobGraph graph = run.graph();
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
