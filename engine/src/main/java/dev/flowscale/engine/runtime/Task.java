package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointBarrier;
import dev.flowscale.engine.checkpoint.HandOff;
import dev.flowscale.engine.checkpoint.IncrementalCheckpoint;
import dev.flowscale.engine.checkpoint.SnapshotIdentity;
import dev.flowscale.engine.checkpoint.TaskStateHandle;
import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * One operator instance: the head of a chain runs on a thread of its own, a chained instance on its
 * head's ({@link OperatorChain}). Any throwable from the instance fails the whole job with a cause
 * that names the operator and instance; nothing dies silently.
 */
abstract class Task implements Runnable {
    final TaskContext context;
    final InstanceCounterRecorder metrics;

    /** The thread's clock: this task's own, or its chain head's once chained. */
    PhaseClock clock;

    /** The chain this task runs in: one of its own until it joins another's. */
    OperatorChain chain;

    final Cancellation cancellation;
    private final JobFailureHandler failures;
    private final SnapshotSink snapshots;
    final TaskState state;
    TaskOutput output;

    /** Pays the operator's synthetic per-record cost; null when it has none. */
    MeteredCost cost;

    private Runnable opened = () -> {};

    /**
     * The latency histograms per source, set before the thread starts when the job tracks latency
     * and has a meter registry; null otherwise (markers are then only forwarded).
     */
    LatencyStats latency;

    /** Whether the job carries event time (some source has a watermark strategy). */
    boolean eventTime;

    /** The instance's watermark in snapshots; null without event time. */
    WatermarkState watermarkState;

    /**
     * Which records publish the pending counts: those whose index has none of these bits set (0:
     * every record). See {@link #sample}.
     */
    int publishMask;

    private long sampledAt;
    private InstanceCounts sampledFrom;
    static final long TUNE_EVERY_NANOS = 200_000_000L;

    /**
     * The first retune comes this soon after the first batch, and each interval after it doubles up
     * to {@value #TUNE_EVERY_NANOS} ns: until it retunes, an instance publishes its counts at every
     * record and its input takes small batches ({@link InputGate#INITIAL_RECORD_LIMIT}), so the
     * start of a job would otherwise run for a fifth of a second unlike the rest of it.
     */
    static final long FIRST_TUNE_NANOS = 4_000_000L;

    private long tuneEvery = FIRST_TUNE_NANOS;

    /**
     * Records publish their pending counts this often in useful time: a snapshot taken in the
     * middle of a batch then misses at most about this much of the instance's work.
     */
    static final long PUBLISH_EVERY_NANOS = 64_000L;

    Task(TaskContext context, RunSettings settings, TaskState state) {
        this.context = context;
        var keyGroups = state.keyed() == null ? null : state.keyed().keyGroupRange();
        this.metrics =
                keyGroups == null
                        ? new InstanceCounterRecorder(
                                context.operatorId(),
                                context.instanceIndex(),
                                this instanceof SourceTask)
                        : new InstanceCounterRecorder(
                                context.operatorId(),
                                context.instanceIndex(),
                                false,
                                keyGroups.start(),
                                keyGroups.size());
        this.clock = new PhaseClock(metrics, settings.config().instrumented());
        this.cancellation = settings.cancellation();
        this.failures = settings.failures();
        this.snapshots = settings.snapshots();
        this.state = state;
        this.chain = new OperatorChain(this, settings.config().instrumented());
    }

    /**
     * Writes this task's part of snapshot {@code barrier} and acknowledges it once written (RocksDB
     * files after their background copy); a failure to write declines the snapshot instead of
     * failing the job.
     */
    void snapshot(CheckpointBarrier barrier, List<?> splits) {
        Path dir = snapshots.directory(barrier.id());
        if (dir == null) {
            return;
        }
        if (barrier.handOver()) {
            handOver(barrier, splits);
            return;
        }
        try {
            CompletableFuture<TaskStateHandle> handle =
                    IncrementalCheckpoint.start(
                            dir,
                            new SnapshotIdentity(context.jobName(), barrier.id()),
                            barrier.savepoint(),
                            context.operatorId(),
                            context.instanceIndex(),
                            state.keyed(),
                            state.operatorState(),
                            splits);
            if (state.keyed() != null) {
                state.keyed().snapshotted(barrier.id());
            }
            // RocksDB files are copied in the background: acknowledged (or declined, with the
            // copy's failure) when that is done; at once otherwise.
            handle.whenComplete(
                    (done, failure) -> {
                        if (failure == null) {
                            snapshots.acknowledge(barrier.id(), done);
                        } else {
                            snapshots.decline(barrier.id(), context.describe(), failure);
                        }
                    });
        } catch (IOException | RuntimeException e) {
            snapshots.decline(barrier.id(), context.describe(), e);
        }
    }

    /** See {@link SnapshotSink#sourceAtEnd()}. */
    boolean sourceAtEnd() {
        return snapshots.sourceAtEnd();
    }

    /** Captures this task's state for a hand-over rescale; the task stops right after. */
    private void handOver(CheckpointBarrier barrier, List<?> splits) {
        try {
            HandOff captured =
                    HandOff.capture(
                            context.operatorId(),
                            context.instanceIndex(),
                            state.keyed(),
                            state.operatorState(),
                            splits);
            if (state.keyed() != null) {
                state.keyed().snapshotted(barrier.id());
            }
            snapshots.handOver(barrier.id(), captured);
        } catch (IOException | RuntimeException e) {
            snapshots.decline(barrier.id(), context.describe(), e);
        }
    }

    boolean isFinished() {
        return metrics.phase() == InstanceCounterRecorder.Phase.FINISHED;
    }

    /** Turns event time on for this task; called before the thread starts. */
    void eventTime() {
        this.eventTime = true;
        this.watermarkState = new WatermarkState(state.operatorState());
    }

    void cost(MeteredCost perRecord) {
        this.cost = perRecord;
    }

    /**
     * Every {@value #TUNE_EVERY_NANOS} ns (sooner at the start: {@link #FIRST_TUNE_NANOS}), from
     * one sample of the counters: retunes how often the instance publishes its pending counts
     * ({@link #publishMaskFor}), then {@link #onSample} sees the same figures.
     */
    final void sample(long now) {
        if (chain.head() == this && chain.hasMembers()) {
            chain.timing.tick(now);
            chain.sampleMembers(now);
        }
        if (!clock.instrumented() || (sampledFrom != null && now - sampledAt < tuneEvery)) {
            return;
        }
        var snapshot = metrics.snapshot(now);
        if (sampledFrom != null) {
            long records = snapshot.recordsIn() - sampledFrom.recordsIn();
            long useful = snapshot.usefulNanos() - sampledFrom.usefulNanos();
            if (records > 0) {
                publishMask = publishMaskFor(useful, records);
                output.publishMask(publishMask);
            }
            onSample(records, useful);
            tuneEvery = nextTuneInterval(tuneEvery);
        }
        sampledFrom = snapshot;
        sampledAt = now;
    }

    /**
     * The interval after one of {@code nanos}: twice as long, at most {@value #TUNE_EVERY_NANOS}.
     */
    static long nextTuneInterval(long nanos) {
        return Math.min(TUNE_EVERY_NANOS, 2 * nanos);
    }

    /**
     * The publish mask for records that took {@code usefulNanos} in all: one less than the largest
     * power of two of them that fits in {@value #PUBLISH_EVERY_NANOS} ns (0, every record, when one
     * takes that long). Fast records thus publish once per batch or less (the batch's end always
     * publishes), so the per-record cost of instrumentation stays off the hot path; slow ones
     * publish often enough that a snapshot in the middle of a batch stays exact within that time.
     */
    static int publishMaskFor(long usefulNanos, long records) {
        long perRecord = Math.max(1, usefulNanos / Math.max(1, records));
        long every = PUBLISH_EVERY_NANOS / perRecord;
        return every <= 1 ? 0 : (int) Long.highestOneBit(every) - 1;
    }

    /** Records taken in and useful nanoseconds spent since the previous sample. */
    void onSample(long records, long usefulNanos) {}

    /** Called once the task has opened, or has ended without opening. */
    void onOpened(Runnable callback) {
        this.opened = callback;
    }

    /** Tells that this task has opened (or ended without opening). */
    final void markOpened() {
        opened.run();
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
                chain.openMembers();
                open();
            } finally {
                opened.run();
                chain.membersOpened();
            }
            process();
            output.endOfStream();
        } catch (CancellationException e) {
            // The job was cancelled: another task's failure or a cancel() call, reported there.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            TaskContext where = t instanceof ChainedFailure chained ? chained.task() : context;
            Throwable cause = t instanceof ChainedFailure ? t.getCause() : t;
            failures.taskFailed(
                    where, cause instanceof UserCodeException ? cause.getCause() : cause);
        } finally {
            closeQuietly();
            chain.closeMembers();
            clock.finish();
        }
    }

    /** Fails the job with this instance's failure, from a thread other than its own. */
    void failed(Throwable cause) {
        failures.taskFailed(context, cause);
    }

    abstract void open() throws Exception;

    abstract void process() throws Exception;

    abstract void close() throws Exception;

    final void closeQuietly() {
        try {
            close();
        } catch (Throwable t) {
            if (!cancellation.isCancelled()) {
                failures.taskFailed(context, t);
            }
        } finally {
            if (cost != null) {
                cost.close();
            }
        }
    }

    /** Reports a task's failure to its job. */
    interface JobFailureHandler {
        void taskFailed(TaskContext task, Throwable cause);
    }
}
