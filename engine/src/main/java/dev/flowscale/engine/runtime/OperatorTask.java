package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointBarrier;
import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import java.time.Clock;

/**
 * Runs a non-source operator instance: takes batches from its input gate, calls the operator for
 * each record and pays the synthetic cost. Useful time is everything but waiting for input and
 * waiting for room downstream, counted by phase changes rather than per record. A chained instance
 * has no gate: the operator before it calls {@link #processChained} and {@link #onChainedEvent} on
 * the chain's thread.
 */
final class OperatorTask extends Task {
    private final InputGate gate;
    private final OperatorLogic logic;
    private final long flushIntervalNanos;
    private final long idleFlushNanos;
    private final boolean instrumented;
    private int openChannels;
    private long lastFlush;

    private static final double DEBLOAT_TARGET_SECONDS = 0.5;

    /** Longest wait for input while a processing-time timer is pending. */
    private static final long TIMER_SLICE_MILLIS = 10;

    private CheckpointBarrier aligning;
    private int barriersSeen;
    private long lastBarrier;

    /** Merges the input channels' watermarks; null without event time. */
    private WatermarkValve valve;

    /**
     * The valve's watermark once this instance has fired its timers up to it, for readers on other
     * threads; {@link Long#MIN_VALUE} before the first or without event time.
     */
    private volatile long processedWatermark = Long.MIN_VALUE;

    private final Clock wallClock;

    /** Told once, after this instance processed its first batch of records; then null. */
    private Runnable firstRecord;

    /** Records a chained instance took in since its counts were last published. */
    private long chainedIn;

    OperatorTask(
            TaskContext context,
            RunSettings settings,
            TaskState state,
            InputGate gate,
            OperatorLogic logic) {
        super(context, settings, state);
        this.gate = gate;
        this.logic = logic;
        this.flushIntervalNanos = settings.config().flushInterval().toNanos();
        this.idleFlushNanos = settings.config().idleFlush().toNanos();
        this.openChannels = gate == null ? 1 : gate.channels();
        this.instrumented = settings.config().instrumented();
        this.wallClock = settings.config().clock();
        this.firstRecord = settings.firstRecord();
        if (!instrumented && gate != null) {
            // Debloating sizes the input by measured useful time; without measurements the input
            // takes whole batches, bounded by the channel capacity as before debloating.
            gate.limitRecords(Integer.MAX_VALUE);
        } else if (logic instanceof OperatorLogics.KeyedLogic keyed) {
            keyed.countKeyGroups(metrics.keyGroupCounter());
        }
    }

    @Override
    void open() throws Exception {
        state.restoreKeyedState();
        if (eventTime) {
            valve = new WatermarkValve(openChannels, watermarkState.restored());
            processedWatermark = valve.current();
        }
        logic.connect(output);
        if (logic.commitsOnCheckpoints() && state.restore() != null) {
            state.restore().awaitDurable();
        }
        logic.open();
        if (valve != null && valve.current() != Long.MIN_VALUE) {
            // The valve forwards only what rises above this floor, and the instances downstream
            // start with no watermark from this one: without the floor they would wait for it
            // forever if the floor is already final (as a source emits its own on restore).
            output.broadcastEvent(Batch.watermark(valve.current()));
        }
        lastFlush = System.nanoTime();
    }

    @Override
    void process() throws Exception {
        while (openChannels > 0) {
            Batch batch = nextBatch();
            if (batch.kind == Batch.Kind.BARRIER) {
                boolean timed = chain.timing.beginEvent();
                onBarrier(batch.barrier, gate.lastChannel());
                chain.timing.endEvent(timed);
                continue;
            }
            if (batch.kind == Batch.Kind.END_OF_STREAM) {
                openChannels--;
                completeAlignmentIfReady();
                continue;
            }
            if (batch.kind == Batch.Kind.WATERMARK || batch.kind == Batch.Kind.IDLENESS) {
                boolean timed = chain.timing.beginEvent();
                onTimeEvent(batch, gate.lastChannel());
                chain.timing.endEvent(timed);
                chain.publishMemberCounts();
                continue;
            }
            if (batch.kind == Batch.Kind.LATENCY_MARKER) {
                onMarker(batch);
                continue;
            }
            logic.onBatchFrom(gate.lastChannel());
            chain.timing.beginBatch();
            processBatch(batch);
            chain.timing.endBatch();
            firePendingProcessingTimers();
            clock.records(batch.size, output.takeEmitted());
            chain.publishMemberCounts();
            if (firstRecord != null) {
                firstRecord.run();
                firstRecord = null;
            }
            long now = System.nanoTime();
            sample(now);
            if (now - lastFlush > flushIntervalNanos) {
                output.flush();
                lastFlush = now;
            }
        }
    }

    /**
     * Buffer debloating, at every sample: limits the records queued at the input to about {@code
     * DEBLOAT_TARGET} of this instance's own processing (its true rate), so in-flight data never
     * takes long to drain and barriers are not stuck behind it.
     */
    @Override
    void onSample(long records, long usefulNanos) {
        double useful = usefulNanos / 1e9;
        if (gate != null && useful > 0.01 && records > 0) {
            double perChannel = records / useful * DEBLOAT_TARGET_SECONDS / gate.channels();
            gate.limitRecords((int) Math.min(Integer.MAX_VALUE, Math.ceil(perChannel)));
        }
    }

    /**
     * A data batch. Per record, only the operator is called, unless the records have a synthetic
     * cost. A batch that publishes its pending counts as it goes ({@link #publishesWithin}) runs
     * the same loop over slices of {@code publishMask + 1} records, publishing before each: the
     * loop, and the code the JIT compiles for it, is the same whatever the instance's speed.
     */
    private void processBatch(Batch batch) throws Exception {
        if (cost != null) {
            processRecordByRecord(batch);
        } else if (!publishesWithin(batch.size)) {
            RecordLoops.run(batch, 0, batch.size, logic, output);
        } else {
            int every = publishMask + 1;
            for (int from = 0; from < batch.size; from += every) {
                // Counted when it starts: a snapshot sees a record's input with its outputs.
                metrics.pendingIn(from + 1);
                RecordLoops.run(batch, from, Math.min(batch.size, from + every), logic, output);
            }
        }
    }

    /** Records with a synthetic cost, each paid before the record is processed. */
    private void processRecordByRecord(Batch batch) throws Exception {
        TaskOutput out = output;
        InstanceCounterRecorder published = publishesWithin(batch.size) ? metrics : null;
        int mask = publishMask;
        for (int i = 0; i < batch.size; i++) {
            // Counted when it starts and charged before its outputs, so that a snapshot at any
            // moment sees a record's input and outputs together (cost time dominates a record).
            if (published != null && (i & mask) == 0) {
                published.pendingIn(i + 1);
            }
            cost.run();
            RecordLoops.one(batch, i, logic, out);
            flushIfDue();
        }
    }

    /**
     * Whether a batch of {@code records} publishes its pending counts record by record: only when
     * it may take longer than one publish interval ({@link Task#publishMaskFor}); a shorter batch
     * publishes once, at its end, and runs the same loop as an uninstrumented instance.
     */
    private boolean publishesWithin(int records) {
        return instrumented && (publishMask == 0 || publishMask + 1 < records);
    }

    /** One record from the operator this instance is chained to, on the chain's thread. */
    void processChained(Object record, long timestamp) throws Exception {
        chainedIn++;
        if (instrumented && (chainedIn & publishMask) == 0) {
            metrics.pendingIn(chainedIn);
        }
        if (cost != null) {
            cost.run();
        }
        output.timestamp = timestamp;
        logic.process(record, output);
        if (cost != null) {
            flushIfDue();
        }
    }

    /** An event from the operator this instance is chained to (its only input). */
    void onChainedEvent(Batch event) throws Exception {
        switch (event.kind) {
            case BARRIER -> onBarrier(event.barrier, 0);
            case WATERMARK, IDLENESS -> onTimeEvent(event, 0);
            case LATENCY_MARKER -> onMarker(event);
            case END_OF_STREAM -> {
                openChannels = 0;
                output.endOfStream();
            }
            case DATA -> throw new IllegalStateException("records reach a chained operator singly");
        }
    }

    /** Publishes what this chained instance took in and emitted since the last call. */
    void publishChainedCounts() {
        long emitted = output.takeEmitted();
        if (instrumented) {
            metrics.addRecords(chainedIn, emitted);
        }
        chainedIn = 0;
    }

    /**
     * A watermark or idle status from one channel: when the merged watermark advances, timers fire
     * and the watermark goes downstream; when every channel turns idle (or one wakes), so does this
     * instance.
     */
    private void onTimeEvent(Batch event, int channel) throws Exception {
        boolean wasIdle = valve.allIdle();
        long advanced =
                event.kind == Batch.Kind.WATERMARK
                        ? valve.onWatermark(channel, event.watermark)
                        : valve.onIdleness(channel, event.watermark == 1);
        if (valve.allIdle() != wasIdle) {
            output.broadcastEvent(Batch.idleness(valve.allIdle()));
        }
        if (advanced != WatermarkValve.NO_ADVANCE) {
            logic.onWatermark(advanced, output);
            processedWatermark = advanced;
            output.broadcastEvent(Batch.watermark(advanced));
        }
    }

    /**
     * Records a latency marker's latency and forwards it at once: it never reaches the operator, so
     * it waits in no window or buffer of the operator's. Handling it is not record work, so its few
     * hundred nanoseconds count as waiting for input, not as DS2 useful time.
     */
    private void onMarker(Batch marker) throws InterruptedException {
        Phase before = clock.setAside();
        if (latency != null) {
            latency.record(marker.marker);
        }
        output.emitMarker(marker);
        clock.resume(before);
    }

    /** Fires the timers that are due, this instance's and its chain's; cheap when none are. */
    private void firePendingProcessingTimers() throws Exception {
        fireOwnTimers();
        if (chain.hasMembers()) {
            chain.fireMemberTimers();
        }
    }

    /** Fires this instance's processing-time timers that are due. */
    void fireOwnTimers() throws Exception {
        long next = logic.nextProcessingTimer();
        if (next != Long.MAX_VALUE) {
            long now = wallClock.millis();
            if (now >= next) {
                logic.onProcessingTime(now, output);
            }
        }
    }

    /**
     * Aligns checkpoint barriers: a channel that delivered the barrier is held back until the
     * barrier has arrived on every open channel; then the task forwards the barrier, snapshots its
     * state and releases the channels. A newer barrier abandons an older alignment.
     */
    private void onBarrier(CheckpointBarrier barrier, int channel) throws Exception {
        if (barrier.id() <= lastBarrier || (aligning != null && barrier.id() < aligning.id())) {
            return;
        }
        if (gate == null) {
            aligning = barrier;
            barriersSeen = 1;
            completeAlignmentIfReady();
            return;
        }
        if (aligning == null || barrier.id() > aligning.id()) {
            gate.unblockAll();
            aligning = barrier;
            barriersSeen = 0;
        }
        gate.block(channel);
        barriersSeen++;
        completeAlignmentIfReady();
    }

    private void completeAlignmentIfReady() throws Exception {
        if (aligning == null || barriersSeen < openChannels) {
            return;
        }
        CheckpointBarrier barrier = aligning;
        aligning = null;
        lastBarrier = barrier.id();
        if (valve != null) {
            watermarkState.save(valve.current());
        }
        logic.beforeSnapshot();
        // A snapshot (the function's, e.g. a two-phase-commit sink's flush waiting for its broker,
        // then the state's) costs per checkpoint, not per record: as useful time it would make the
        // operator's capacity look smaller the less input it has, and a load drop would scale it
        // up.
        Phase before = clock.setAside();
        try {
            logic.snapshotState(barrier.id());
            // The barrier goes on before this task writes its state (nothing is processed in
            // between, so the state is still the barrier's): downstream tasks align meanwhile.
            output.broadcastEvent(Batch.barrier(barrier));
            snapshot(barrier, null);
        } finally {
            clock.resume(before);
        }
        if (gate != null) {
            gate.unblockAll();
        }
    }

    /**
     * A costly operator may spend long on one batch: its outputs must not wait for the batch's end.
     */
    private void flushIfDue() throws InterruptedException {
        long now = System.nanoTime();
        if (now - lastFlush > flushIntervalNanos) {
            output.flush();
            lastFlush = now;
        }
    }

    /**
     * The next batch; when the input runs dry, waits briefly, then flushes and waits on. Latency
     * markers that arrive while it waits are handled without leaving the wait.
     */
    private Batch nextBatch() throws Exception {
        Batch batch = gate.poll();
        if (batch != null) {
            return batch;
        }
        clock.enter(Phase.WAIT_INPUT);
        do {
            batch = gate.poll(idleFlushNanos);
            if (batch == null) {
                output.flush();
                lastFlush = System.nanoTime();
                batch = awaitInputOrTimer();
            }
            if (batch.kind == Batch.Kind.LATENCY_MARKER) {
                onMarker(batch);
                batch = null;
            }
        } while (batch == null);
        clock.enter(Phase.USEFUL);
        return batch;
    }

    /** Waits for input; with processing-time timers pending, wakes to fire them when due. */
    private Batch awaitInputOrTimer() throws Exception {
        while (true) {
            long next = Math.min(logic.nextProcessingTimer(), chain.nextMemberTimer());
            if (next == Long.MAX_VALUE) {
                return gate.take();
            }
            // In slices: the clock may be one that a test steps by hand.
            long waitMillis = Math.min(next - wallClock.millis(), TIMER_SLICE_MILLIS);
            Batch batch = waitMillis > 0 ? gate.poll(waitMillis * 1_000_000L) : null;
            if (batch != null) {
                return batch;
            }
            if (wallClock.millis() >= next) {
                clock.enter(Phase.USEFUL);
                firePendingProcessingTimers();
                chain.publishMemberCounts();
                output.flush();
                clock.enter(Phase.WAIT_INPUT);
            }
        }
    }

    @Override
    void close() throws Exception {
        logic.close();
    }

    /**
     * Tells the logic that snapshot {@code checkpointId} is complete; a failure there fails the job
     * like any failure of the instance.
     */
    void checkpointComplete(long checkpointId) {
        try {
            logic.checkpointComplete(checkpointId);
        } catch (Exception e) {
            failed(e);
        }
    }

    OperatorLogic logic() {
        return logic;
    }

    int queuedBatches() {
        return gate == null ? 0 : gate.queuedBatches();
    }

    long queuedRecords() {
        return gate == null ? 0 : gate.queuedRecords();
    }

    /** The watermark this instance has processed (its event-time timers up to it fired). */
    long processedWatermark() {
        return processedWatermark;
    }
}
