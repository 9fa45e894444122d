package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.SplitCollector;
import dev.flowscale.engine.api.TimestampAssigner;
import dev.flowscale.engine.api.WatermarkStrategy;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * A source instance's event time: gives each record the timestamp its strategy reads, tracks one
 * bounded-out-of-orderness watermark per split, and emits their minimum (skipping idle splits) at
 * the strategy's interval. Costs one field write and one comparison per record; the clock is read
 * once per poll.
 */
final class SourceWatermarks implements SplitCollector<Object> {
    private final TaskOutput output;
    private final TimestampAssigner<Object> assigner;
    private final long bound;
    private final long idleMillis;
    private final long intervalMillis;
    private final Clock clock;
    private final Map<Object, Split> splits = new HashMap<>();
    private Split current;
    private long emitted;
    private boolean idle;
    private long lastEmitAt = Long.MIN_VALUE;

    /** One split's progress: its largest timestamp, and whether it emitted since the last check. */
    private static final class Split {
        long maxTimestamp = Long.MIN_VALUE;
        boolean emittedSinceCheck;
        boolean finished;
        long lastActiveAt;

        Split(long now) {
            lastActiveAt = now;
        }
    }

    @SuppressWarnings("unchecked")
    SourceWatermarks(TaskOutput output, WatermarkStrategy<?> strategy, Clock clock, long floor) {
        this.output = output;
        this.assigner = (TimestampAssigner<Object>) strategy.assigner();
        this.bound = strategy.maxOutOfOrderness().toMillis();
        this.idleMillis =
                strategy.idleTimeout() == null ? Long.MAX_VALUE : strategy.idleTimeout().toMillis();
        this.intervalMillis = strategy.interval().toMillis();
        this.clock = clock;
        this.emitted = floor;
    }

    /** The watermark emitted last (the restored floor before the first). */
    long watermark() {
        return emitted;
    }

    @Override
    public void startSplit(Object id) {
        current = split(id);
    }

    @Override
    public void finishSplit(Object id) {
        split(id).finished = true;
    }

    private Split split(Object id) {
        return splits.computeIfAbsent(id, k -> new Split(clock.millis()));
    }

    @Override
    public void collect(Object record) {
        long timestamp = assigner.extractTimestamp(record);
        Split split = current;
        if (split == null) {
            // A reader that never names its splits has one.
            split = current = split(Boolean.TRUE);
        }
        if (timestamp > split.maxTimestamp) {
            split.maxTimestamp = timestamp;
        }
        split.emittedSinceCheck = true;
        if (idle) {
            idle = false;
            broadcast(Batch.idleness(false));
        }
        output.timestamp = timestamp;
        output.collect(record);
    }

    /** Emits the floor first, so that downstream instances resume where the snapshot was. */
    void open() throws InterruptedException {
        if (emitted != Long.MIN_VALUE) {
            output.broadcastEvent(Batch.watermark(emitted));
        }
    }

    /**
     * Whether {@link #afterPoll} would emit or check anything now: once per interval. The source
     * asks first, so that it times the watermark step (a sample of its chain, with clock and
     * run-delay reads) only when there is one, not after every poll.
     */
    boolean due() {
        return due(clock.millis());
    }

    private boolean due(long now) {
        return lastEmitAt == Long.MIN_VALUE || now - lastEmitAt >= intervalMillis;
    }

    /** After each poll: at most once per interval, emits the watermark or the idle status. */
    void afterPoll() throws InterruptedException {
        long now = clock.millis();
        if (!due(now)) {
            return;
        }
        lastEmitAt = now;
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (Split split : splits.values()) {
            if (split.emittedSinceCheck) {
                split.emittedSinceCheck = false;
                split.lastActiveAt = now;
            }
            if (split.finished) {
                anyActive = true;
            } else if (now - split.lastActiveAt < idleMillis) {
                anyActive = true;
                min = Math.min(min, watermarkOf(split));
            }
        }
        if (!anyActive) {
            if (!idle) {
                idle = true;
                output.broadcastEvent(Batch.idleness(true));
            }
        } else if (min > emitted) {
            emitted = min;
            output.broadcastEvent(Batch.watermark(min));
        }
    }

    private long watermarkOf(Split split) {
        return split.maxTimestamp == Long.MIN_VALUE
                ? Long.MIN_VALUE
                : split.maxTimestamp - bound - 1;
    }

    /** The reader has no more records: every timer and window downstream may fire. */
    void endOfInput() throws InterruptedException {
        emitted = Long.MAX_VALUE;
        output.broadcastEvent(Batch.watermark(Long.MAX_VALUE));
    }

    private void broadcast(Batch event) {
        try {
            output.broadcastEvent(event);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while emitting");
        }
    }
}
