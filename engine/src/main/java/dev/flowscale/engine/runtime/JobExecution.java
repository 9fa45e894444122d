package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.checkpoint.CheckpointBarrier;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.ThreadCpu;
import dev.flowscale.engine.metrics.ThreadSchedule;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One run of a job graph: a thread per chain of operator instances ({@link OperatorChain}), from
 * start (fresh or restored) until every task has ended. A failing task cancels the others. {@link
 * RunningJob} supervises executions across failures and rescales.
 */
final class JobExecution {
    private final JobGraph graph;
    private final String runId;
    private final Cancellation cancellation = new Cancellation();
    private final AtomicReference<JobFailedException> failure = new AtomicReference<>();
    private final List<Task> tasks = new ArrayList<>();

    /** The tasks that head a chain: each runs on a thread of its own. */
    private final List<Task> heads;

    private final List<Thread> threads = new ArrayList<>();

    /** Each task thread's kernel id, as it read it at its start; -1 until then or unknown. */
    private final AtomicLongArray kernelIds;

    private final CountDownLatch done;
    private final CountDownLatch opened;
    private final AtomicInteger running = new AtomicInteger();
    private final Consumer<JobExecution> onEnd;
    private volatile boolean cancelRequested;
    private volatile boolean keepStatesOpen;
    private volatile boolean stopBarrierSent;
    private final CountDownLatch firstRecord = new CountDownLatch(1);

    JobExecution(
            JobGraph graph,
            JobConfig config,
            String runId,
            SnapshotSink snapshots,
            RestoredState restored,
            Consumer<JobExecution> onEnd) {
        this.graph = graph;
        this.runId = runId;
        this.onEnd = onEnd;
        tasks.addAll(
                ExecutionPlan.build(
                        graph,
                        new RunSettings(
                                config,
                                cancellation,
                                this::taskFailed,
                                snapshots,
                                restored,
                                firstRecord::countDown)));
        this.heads = tasks.stream().filter(t -> t.chain.head() == t).toList();
        this.done = new CountDownLatch(heads.size());
        this.kernelIds = new AtomicLongArray(heads.size());
        for (int i = 0; i < heads.size(); i++) {
            kernelIds.set(i, -1);
        }
        this.opened = new CountDownLatch(tasks.size());
        this.running.set(heads.size());
        tasks.forEach(t -> t.onOpened(opened::countDown));
    }

    /**
     * Keeps the tasks' keyed backends (their RocksDB) open when the tasks end, for a rescale that
     * hands them to the next run; the rescale then calls {@link #closeStates}.
     */
    void keepStatesOpen() {
        keepStatesOpen = true;
    }

    /**
     * Undoes {@link #keepStatesOpen}: a rescale that never stopped this run leaves it as it was.
     */
    void closeStatesAtEnd() {
        keepStatesOpen = false;
    }

    /**
     * Closes this run's keyed backends (kept open for a hand-over until its savepoint is written).
     */
    void closeStates() {
        for (Task task : tasks) {
            KeyedStateBackend keyed = task.state.keyed();
            if (keyed != null) {
                keyed.close();
            }
        }
    }

    /**
     * Waits until an operator (not a source) of this run has processed its first records; returns
     * false if none did within the timeout.
     */
    boolean awaitFirstRecord(long timeout, TimeUnit unit) throws InterruptedException {
        return firstRecord.await(timeout, unit);
    }

    /** Waits until every task has opened (restored state decoded, functions opened) or ended. */
    boolean awaitOpened(long timeout, TimeUnit unit) throws InterruptedException {
        return opened.await(timeout, unit);
    }

    void start() {
        for (int i = 0; i < heads.size(); i++) {
            Task task = heads.get(i);
            int index = i;
            threads.add(
                    new Thread(
                            () -> {
                                kernelIds.set(index, ThreadSchedule.currentThreadId());
                                runTask(task);
                            },
                            "flowscale-"
                                    + graph.jobName()
                                    + "-"
                                    + task.context.operatorId()
                                    + "-"
                                    + task.context.instanceIndex()));
        }
        threads.forEach(Thread::start);
    }

    private void runTask(Task task) {
        try {
            task.run();
        } finally {
            for (Task chained : task.chain.tasks()) {
                if (chained.state.keyed() != null && !keepStatesOpen) {
                    chained.state.keyed().close();
                }
            }
            // The supervisor hears of the end before anyone waiting on done can act on it.
            if (running.decrementAndGet() == 0) {
                onEnd.accept(this);
            }
            done.countDown();
        }
    }

    private void taskFailed(TaskContext task, Throwable cause) {
        JobFailedException failed =
                new JobFailedException(
                        "job '" + graph.jobName() + "': " + task.describe() + " failed: " + cause,
                        cause);
        if (failure.compareAndSet(null, failed)) {
            cancelAll();
        }
    }

    /**
     * Fails this run from outside its tasks (e.g. too many failed checkpoints): every task is
     * cancelled.
     */
    void fail(JobFailedException cause) {
        if (failure.compareAndSet(null, cause)) {
            cancelAll();
        }
    }

    private void cancelAll() {
        cancellation.cancel();
        threads.forEach(Thread::interrupt);
    }

    JobGraph graph() {
        return graph;
    }

    String runId() {
        return runId;
    }

    /** Tells every operator instance that snapshot {@code checkpointId} is complete. */
    void checkpointComplete(long checkpointId) {
        tasks.stream()
                .filter(t -> t instanceof OperatorTask)
                .forEach(t -> ((OperatorTask) t).checkpointComplete(checkpointId));
    }

    List<Task> tasks() {
        return tasks;
    }

    /** The threads of the tasks, in the order of {@link #tasks()}; empty before {@link #start}. */
    List<Thread> threads() {
        return List.copyOf(threads);
    }

    /** Whether a barrier that stops the sources after it has gone out to them. */
    boolean stopBarrierSent() {
        return stopBarrierSent;
    }

    boolean ended() {
        return done.getCount() == 0;
    }

    JobFailedException failure() {
        return failure.get();
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    /** Whether a task has ended while others run: such a job cannot take a checkpoint. */
    boolean hasFinishedTasks() {
        return tasks.stream().anyMatch(Task::isFinished);
    }

    /** Whether an operator instance commits on checkpoint completion (a two-phase-commit sink). */
    boolean commitsOnCheckpoints() {
        return tasks.stream()
                .anyMatch(t -> t instanceof OperatorTask o && o.logic().commitsOnCheckpoints());
    }

    /** How many source instances this run has. */
    int sourceInstances() {
        return (int) tasks.stream().filter(t -> t instanceof SourceTask).count();
    }

    void triggerSources(CheckpointBarrier barrier) {
        if (barrier.stopAfter()) {
            stopBarrierSent = true;
        }
        tasks.stream()
                .filter(t -> t instanceof SourceTask)
                .forEach(t -> ((SourceTask) t).triggerBarrier(barrier));
    }

    JobMetricsSnapshot metrics() {
        long now = System.nanoTime();
        Map<Task, InstanceCounts> counts = new IdentityHashMap<>(tasks.size());
        for (int h = 0; h < heads.size(); h++) {
            Thread thread = h < threads.size() ? threads.get(h) : null;
            heads.get(h)
                    .chain
                    .snapshot(
                            now,
                            ThreadCpu.nanos(thread),
                            ThreadSchedule.runDelayNanos(kernelIds.get(h)),
                            counts::put);
        }
        List<InstanceCounts> instances = new ArrayList<>(tasks.size());
        for (String op : graph.topologicalOrder()) {
            for (Task t : tasks) {
                if (t.context.operatorId().equals(op)) {
                    instances.add(counts.get(t));
                }
            }
        }
        return new JobMetricsSnapshot(graph.jobName(), now, graph.parallelism(), instances, runId);
    }

    void stopSources() {
        tasks.stream()
                .filter(t -> t instanceof SourceTask)
                .forEach(t -> ((SourceTask) t).requestStop());
    }

    void cancel() {
        cancelRequested = true;
        cancelAll();
    }

    boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return done.await(timeout, unit);
    }

    void join(long millis) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(millis);
        }
    }

    int queuedBatches() {
        return tasks.stream()
                .filter(t -> t instanceof OperatorTask)
                .mapToInt(t -> ((OperatorTask) t).queuedBatches())
                .sum();
    }

    /**
     * The lowest watermark the instances of {@code operator} have processed; empty if it has no
     * instance that takes input (a source or an unknown operator).
     */
    OptionalLong processedWatermark(String operator) {
        return tasks.stream()
                .filter(t -> t instanceof OperatorTask && t.context.operatorId().equals(operator))
                .mapToLong(t -> ((OperatorTask) t).processedWatermark())
                .min();
    }

    long queuedRecords() {
        return tasks.stream()
                .filter(t -> t instanceof OperatorTask)
                .mapToLong(t -> ((OperatorTask) t).queuedRecords())
                .sum();
    }
}
