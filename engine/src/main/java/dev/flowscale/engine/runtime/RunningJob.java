package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.InstanceSnapshot;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A job running on the embedded engine: one thread per operator instance. Poll
 * {@link #metrics()} for DS2's counters; {@link #await()} for the end; {@link #stop()} drains
 * gracefully, {@link #cancel()} stops at once.
 */
public final class RunningJob implements AutoCloseable {

    /** The life of a job run. */
    public enum Status { RUNNING, FINISHED, FAILED, CANCELLED }

    private final JobGraph graph;
    private final JobConfig config;
    private final Cancellation cancellation = new Cancellation();
    private final AtomicReference<JobFailedException> failure = new AtomicReference<>();
    private final List<Task> tasks = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final CountDownLatch done;
    private volatile boolean cancelRequested;
    private AutoCloseable meters = () -> { };

    private RunningJob(JobGraph graph, JobConfig config) {
        this.graph = graph;
        this.config = config;
        tasks.addAll(ExecutionPlan.build(graph, new RunSettings(config, cancellation, this::taskFailed)));
        this.done = new CountDownLatch(tasks.size());
    }

    /** Validates nothing more (the graph is valid by construction) and starts every task. */
    public static RunningJob start(JobGraph graph, JobConfig config) {
        RunningJob job = new RunningJob(graph, config);
        if (config.meterRegistry() != null) {
            job.meters = EngineMeters.bind(job, config.meterRegistry(), config.rateWindow());
        }
        job.startThreads();
        return job;
    }

    private void startThreads() {
        for (Task task : tasks) {
            Thread thread = new Thread(() -> runTask(task),
                    "flowscale-" + graph.jobName() + "-" + task.context.operatorId() + "-" + task.context.instanceIndex());
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    private void runTask(Task task) {
        try {
            task.run();
        } finally {
            done.countDown();
        }
    }

    private void taskFailed(TaskContext task, Throwable cause) {
        JobFailedException failed = new JobFailedException("job '" + graph.jobName() + "': " + task.describe()
                + " failed: " + cause, cause);
        if (failure.compareAndSet(null, failed)) {
            cancelAll();
        }
    }

    private void cancelAll() {
        cancellation.cancel();
        threads.forEach(Thread::interrupt);
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

    public Status status() {
        if (done.getCount() > 0) {
            return Status.RUNNING;
        }
        return failure.get() != null ? Status.FAILED : cancelRequested ? Status.CANCELLED : Status.FINISHED;
    }

    /** Consistent cumulative counters of every instance as of now. */
    public JobMetricsSnapshot metrics() {
        long now = System.nanoTime();
        List<InstanceSnapshot> instances = new ArrayList<>(tasks.size());
        for (String op : graph.topologicalOrder()) {
            tasks.stream().filter(t -> t.context.operatorId().equals(op)).forEach(t -> instances.add(t.metrics.snapshot(now)));
        }
        return new JobMetricsSnapshot(graph.jobName(), now, graph.parallelism(), instances);
    }

    /** Asks the sources to stop; the records in flight drain and the job finishes. */
    public void stop() {
        tasks.stream().filter(t -> t instanceof SourceTask).forEach(t -> ((SourceTask) t).requestStop());
    }

    /** Stops every task at once; records in flight are dropped. */
    public void cancel() {
        cancelRequested = true;
        cancelAll();
    }

    /** Waits for the end; throws {@link JobFailedException} if a task failed. */
    public Status await() throws InterruptedException {
        done.await();
        return finalStatus();
    }

    /** Waits up to {@code timeout}; returns whether the job ended, throws if it failed. */
    public boolean await(Duration timeout) throws InterruptedException {
        if (!done.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        finalStatus();
        return true;
    }

    private Status finalStatus() {
        JobFailedException failed = failure.get();
        if (failed != null) {
            throw new JobFailedException(failed.getMessage(), failed.getCause());
        }
        return status();
    }

    /** Cancels the job if it still runs, waits for its threads and unregisters its meters. */
    @Override
    public void close() throws Exception {
        if (done.getCount() > 0) {
            cancel();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        meters.close();
    }

    /** Batches queued in all input gates now; bounded by the channel capacities. */
    public int queuedBatches() {
        return tasks.stream().filter(t -> t instanceof OperatorTask).mapToInt(t -> ((OperatorTask) t).queuedBatches()).sum();
    }

    /** Records queued in all input gates now; bounded by the sum of channel capacities. */
    public long queuedRecords() {
        return tasks.stream().filter(t -> t instanceof OperatorTask).mapToLong(t -> ((OperatorTask) t).queuedRecords()).sum();
    }

    /** The most records the channels of this job can hold: channels × capacity × batch size. */
    public long channelCapacityRecords() {
        long channels = 0;
        for (var edge : graph.edges()) {
            int to = graph.operator(edge.to()).parallelism();
            channels += edge.partitioning() == dev.flowscale.engine.graph.Partitioning.FORWARD ? to
                    : (long) to * graph.operator(edge.from()).parallelism();
        }
        return channels * config.channelCapacity() * config.batchSize();
    }

    List<Task> tasks() {
        return tasks;
    }
}
