package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointBarrier;
import dev.flowscale.engine.checkpoint.InstanceStateFile;
import dev.flowscale.engine.checkpoint.TaskStateHandle;
import dev.flowscale.engine.metrics.InstanceMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * One operator instance on its own thread. Any throwable from the instance fails the whole
 * job with a cause that names the operator and instance; nothing dies silently.
 */
abstract class Task implements Runnable {
    final TaskContext context;
    final InstanceMetrics metrics;
    final PhaseClock clock;
    final Cancellation cancellation;
    private final JobFailureHandler failures;
    private final SnapshotSink snapshots;
    final TaskState state;
    TaskOutput output;
    /** Pays the operator's synthetic per-record cost; null when it has none. */
    Runnable cost;
    private Runnable opened = () -> { };

    Task(TaskContext context, RunSettings settings, TaskState state) {
        this.context = context;
        this.metrics = new InstanceMetrics(context.operatorId(), context.instanceIndex(), this instanceof SourceTask);
        this.clock = new PhaseClock(metrics, settings.config().instrumented());
        this.cancellation = settings.cancellation();
        this.failures = settings.failures();
        this.snapshots = settings.snapshots();
        this.state = state;
    }

    /**
     * Writes this task's part of snapshot {@code barrier} and acknowledges it; a failure to
     * write declines the snapshot instead of failing the job.
     */
    void snapshot(CheckpointBarrier barrier, List<?> splits) {
        Path dir = snapshots.directory(barrier.id());
        if (dir == null) {
            return;
        }
        try {
            TaskStateHandle handle = InstanceStateFile.write(dir, context.operatorId(), context.instanceIndex(),
                    state.keyed(), state.operatorState(), splits);
            snapshots.acknowledge(barrier.id(), handle);
        } catch (IOException | RuntimeException e) {
            snapshots.decline(barrier.id(), context.describe(), e);
        }
    }

    boolean isFinished() {
        return metrics.phase() == InstanceMetrics.Phase.FINISHED;
    }

    void cost(Runnable perRecord) {
        this.cost = perRecord;
    }

    /** Called once the task has opened, or has ended without opening. */
    void onOpened(Runnable callback) {
        this.opened = callback;
    }

    /** Connects the task's output; called once before the thread starts. */
    void connect(TaskOutput taskOutput) {
        taskOutput.publishTo(clock.instrumented() ? metrics : null);
        this.output = taskOutput;
    }

    @Override
    public final void run() {
        clock.start();
        try {
            try {
                open();
            } finally {
                opened.run();
            }
            process();
            output.endOfStream();
        } catch (CancellationException e) {
            // The job was cancelled: another task's failure or a cancel() call, reported there.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failures.taskFailed(context, t instanceof UserCodeException ? t.getCause() : t);
        } finally {
            closeQuietly();
            clock.finish();
        }
    }

    abstract void open() throws Exception;

    abstract void process() throws Exception;

    abstract void close() throws Exception;

    private void closeQuietly() {
        try {
            close();
        } catch (Throwable t) {
            if (!cancellation.isCancelled()) {
                failures.taskFailed(context, t);
            }
        }
    }

    /** Reports a task's failure to its job. */
    interface JobFailureHandler {
        void taskFailed(TaskContext task, Throwable cause);
    }
}
