package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.checkpoint.CheckpointBarrier;
import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import dev.flowscale.engine.time.TimestampedSource;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a source instance: pulls batches from its reader until the reader ends or the job is
 * stopped. Time spent waiting for the schedule (nothing due yet) counts as waiting for input.
 */
final class SourceTask extends Task {
    private static final long MAX_IDLE_NANOS = 1_000_000L;

    private final SourceFunction<Object> source;
    private final int batchSize;
    private final long flushIntervalNanos;
    private volatile boolean stopRequested;
    private SourceReader<Object> reader;
    private boolean fetchesApart;
    private final Clock wallClock;

    /** Assigns timestamps and emits watermarks; null unless the source has a strategy. */
    private SourceWatermarks watermarks;

    /** Where the reader emits: the task's output, or {@link #watermarks} in front of it. */
    private Collector<Object> sink;

    private volatile CheckpointBarrier pendingBarrier;

    /** When to emit latency markers; null when latency tracking is off. */
    private final MarkerSchedule markers;

    SourceTask(
            TaskContext context,
            RunSettings settings,
            TaskState state,
            SourceFunction<Object> source) {
        super(context, settings, state);
        this.source = source;
        this.batchSize = settings.config().batchSize();
        this.flushIntervalNanos = settings.config().flushInterval().toNanos();
        this.wallClock = settings.config().clock();
        this.markers =
                settings.config().latencyTracking()
                        ? new MarkerSchedule(
                                context.operatorId(),
                                context.instanceIndex(),
                                settings.config().latencyInterval(),
                                wallClock)
                        : null;
    }

    /** Asks the source to stop after its current batch; the job then drains. */
    void requestStop() {
        stopRequested = true;
    }

    /** Injects a checkpoint barrier at this source's next step. */
    void triggerBarrier(CheckpointBarrier barrier) {
        pendingBarrier = barrier;
    }

    @Override
    void open() throws InterruptedException {
        sink = output;
        if (source instanceof TimestampedSource<?> timed) {
            watermarks =
                    new SourceWatermarks(
                            output, timed.strategy(), wallClock, watermarkState.restored());
            watermarks.open();
            sink = watermarks;
        }
        reader =
                state.restoredSplits() != null
                        ? source.restoreReader(context, state.restoredSplits())
                        : source.createReader(context);
        SourceReader<Object> opened = reader;
        metrics.liveBacklog(opened::backlog);
        fetchesApart = reader.fetchesApart();
    }

    /**
     * Snapshots the reader's splits, then sends the barrier on; returns whether to stop after it.
     */
    private boolean emitBarrierIfPending() throws InterruptedException {
        CheckpointBarrier barrier = pendingBarrier;
        if (barrier == null) {
            return false;
        }
        pendingBarrier = null;
        if (watermarks != null) {
            watermarkState.save(watermarks.watermark());
        }
        List<?> splits = reader.snapshotSplits();
        // Downstream tasks align while this one writes its splits: nothing is read in between.
        boolean timed = chain.timing.beginEvent();
        output.broadcastEvent(Batch.barrier(barrier));
        chain.timing.endEvent(timed);
        // Per checkpoint, not per record: not useful time (see OperatorTask's barrier).
        Phase before = clock.setAside();
        try {
            snapshot(barrier, splits);
        } finally {
            clock.resume(before);
        }
        return barrier.stopAfter();
    }

    @Override
    void process() throws Exception {
        long lastFlush = System.nanoTime();
        while (!stopRequested) {
            cancellation.check();
            if (emitBarrierIfPending()) {
                break;
            }
            chain.timing.beginBatch();
            int max = output.suggestedBatch(batchSize);
            if (fetchesApart) {
                fetch(max);
            }
            // After an idle wait the poll starts as waiting: one that finds nothing (a Kafka
            // fetch, a schedule not yet due) is not useful time, or an idle source's capacity
            // would seem to fall with its input. One that brings records is useful from its start.
            long pollStart = clock.current() == Phase.WAIT_INPUT ? System.nanoTime() : 0;
            int n = reader.poll(sink, max);
            if (n != 0) {
                clock.usefulSince(pollStart);
            }
            payCost(n);
            if (n > 0) {
                chain.timing.endBatch();
            } else {
                chain.timing.skipBatch();
            }
            if (n == SourceReader.END_OF_INPUT) {
                endOfInput();
                if (sourceAtEnd()) {
                    awaitFinalCheckpoint();
                }
                break;
            }
            if (watermarks != null && watermarks.due()) {
                boolean timed = chain.timing.beginEvent();
                watermarks.afterPoll();
                chain.timing.endEvent(timed);
            }
            if (chain.hasMembers()) {
                chain.fireMemberTimers();
            }
            if (n > 0) {
                clock.records(n, output.takeEmitted());
                chain.publishMemberCounts();
            } else {
                idle();
                lastFlush = System.nanoTime();
            }
            clock.backlog(reader.backlog());
            LatencyMarker marker = markers == null ? null : markers.due();
            if (marker != null) {
                emit(marker);
            }
            long now = System.nanoTime();
            sample(now);
            if (now - lastFlush > flushIntervalNanos) {
                output.flush();
                lastFlush = now;
            }
        }
        clock.backlog(reader.backlog());
    }

    /**
     * The reader's work per call, set aside as waiting for input; the share it reports (records
     * readied over a full fetch's) is booked as useful, ending now. Nothing is emitted meanwhile,
     * so no other phase (backpressure) can begin during it.
     */
    private void fetch(int max) throws Exception {
        Phase before = clock.setAside();
        long start = clock.instrumented() ? System.nanoTime() : 0;
        double share = reader.fetch(max);
        if (share > 0) {
            long end = clock.instrumented() ? System.nanoTime() : 0;
            clock.usefulSince(end - (long) ((end - start) * Math.min(1, share)));
        } else {
            // Nothing fetched (records readied earlier are still to emit, or none came): the
            // phase goes on, so emitting leftovers while busy stays useful from its start.
            clock.resume(before);
        }
    }

    /** A bounded input ended: in event time, nothing later can come, so every timer may fire. */
    private void endOfInput() throws InterruptedException {
        if (watermarks != null) {
            watermarks.endOfInput();
        } else if (eventTime) {
            output.broadcastEvent(Batch.watermark(Long.MAX_VALUE));
        }
    }

    /**
     * A marker is not a record: emitting it is not useful time (see {@link PhaseClock#setAside}).
     */
    private void emit(LatencyMarker marker) throws InterruptedException {
        Phase before = clock.setAside();
        output.emitMarker(Batch.marker(marker));
        clock.resume(before);
    }

    /**
     * Waits, with nothing more to read, until the job's final checkpoint has completed and been
     * told to every operator: barriers still pass on (this instance's splits are at their end), and
     * the task finishes when asked to stop or after a stop-with-savepoint barrier.
     */
    private void awaitFinalCheckpoint() throws InterruptedException {
        output.flush();
        clock.backlog(0L);
        while (!stopRequested) {
            cancellation.check();
            if (emitBarrierIfPending()) {
                return;
            }
            clock.enter(Phase.WAIT_INPUT);
            LockSupport.parkNanos(MAX_IDLE_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            clock.enter(Phase.USEFUL);
        }
    }

    private void payCost(int n) {
        if (cost != null) {
            for (int i = 0; i < n; i++) {
                cost.run();
            }
        }
    }

    /**
     * Flushes what is batched and waits briefly. The flush counts as waiting: it hands on a batch
     * part-filled because input ran out, a cost per flush that full batches at capacity do not pay.
     */
    private void idle() throws InterruptedException {
        clock.enter(Phase.WAIT_INPUT);
        chain.publishMemberCounts();
        output.flush();
        LockSupport.parkNanos(Math.max(1, Math.min(reader.nanosUntilNext(), MAX_IDLE_NANOS)));
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        // Still waiting: the next poll tells whether the wait is over (see process).
    }

    @Override
    void close() throws Exception {
        if (reader != null) {
            reader.close();
        }
    }
}
