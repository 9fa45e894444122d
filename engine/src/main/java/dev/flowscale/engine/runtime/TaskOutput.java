package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * The collector an operator instance emits into: it counts records out, calls the operators chained
 * to it and feeds every other outgoing edge's writer.
 */
final class TaskOutput implements Collector<Object> {
    private final RecordWriter[] writers;

    /** Every writer, main and side outputs: events (barriers, watermarks) go to all of them. */
    private final RecordWriter[] all;

    /** The writers of each side output, by tag id. */
    private final Map<String, RecordWriter[]> side;

    /** The operators chained to the main output, called directly on this thread. */
    private final ChainLink[] links;

    private long emitted;

    /**
     * The last watermark this instance emitted (its event-time progress), for the event-time lag
     * gauge read on another thread; {@link Long#MIN_VALUE} before the first.
     */
    private volatile long watermark = Long.MIN_VALUE;

    private InstanceCounterRecorder metrics;
    private int publishMask;

    /**
     * The event time given to records emitted now: the input record's, a firing timer's or a
     * source's assigned timestamp; {@link Long#MIN_VALUE} for none. Ignored without event time.
     */
    long timestamp = Long.MIN_VALUE;

    TaskOutput(RecordWriter[] writers) {
        this(writers, Map.of(), new ChainLink[0]);
    }

    TaskOutput(RecordWriter[] writers, Map<String, RecordWriter[]> side, ChainLink[] links) {
        this.writers = writers;
        this.side = side;
        this.links = links;
        List<RecordWriter> every = new ArrayList<>(List.of(writers));
        side.values().forEach(w -> every.addAll(List.of(w)));
        this.all = every.toArray(RecordWriter[]::new);
    }

    /** Emits a record to side output {@code tag}; dropped if no stream reads that side output. */
    void side(String tag, Object record) {
        RecordWriter[] targets = side.get(tag);
        if (targets != null) {
            emit(targets, record);
        }
    }

    /** Where to publish the running count of records out; null when not instrumented. */
    void publishTo(InstanceCounterRecorder recorder) {
        this.metrics = recorder;
    }

    /** Publish the running count when it has none of these bits set (0: every record). */
    void publishMask(int mask) {
        this.publishMask = mask;
    }

    @Override
    public void collect(Object record) {
        emitted++;
        if (metrics != null && (emitted & publishMask) == 0) {
            metrics.pendingOut(emitted);
        }
        for (ChainLink link : links) {
            link.push(record, timestamp);
        }
        emit(writers, record);
    }

    private void emit(RecordWriter[] targets, Object record) {
        try {
            for (RecordWriter writer : targets) {
                writer.emit(record, timestamp);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while emitting");
        }
    }

    /** Records emitted since the last call. */
    long takeEmitted() {
        long n = emitted;
        emitted = 0;
        return n;
    }

    /** How many records to produce before checking for barriers and stops again. */
    int suggestedBatch(int max) {
        int min = max;
        for (RecordWriter writer : all) {
            min = Math.min(min, writer.suggestedBatch());
        }
        for (ChainLink link : links) {
            min = Math.min(min, link.suggestedBatch(max));
        }
        return Math.max(1, min);
    }

    /** Hands over the partly filled batches of this operator and of those chained to it. */
    void flush() throws InterruptedException {
        for (RecordWriter writer : all) {
            writer.flush();
        }
        for (ChainLink link : links) {
            link.flush();
        }
    }

    void broadcastEvent(Batch event) throws InterruptedException {
        if (event.kind == Batch.Kind.WATERMARK) {
            watermark = event.watermark;
        }
        for (RecordWriter writer : all) {
            writer.broadcastEvent(event);
        }
        for (ChainLink link : links) {
            link.event(event);
        }
    }

    /**
     * Forwards a latency marker on every outgoing edge, to one random channel of each, and to every
     * chained operator.
     */
    void emitMarker(Batch marker) throws InterruptedException {
        for (RecordWriter writer : all) {
            writer.emitMarker(marker);
        }
        for (ChainLink link : links) {
            link.event(marker);
        }
    }

    /** The last watermark emitted; {@link Long#MIN_VALUE} before the first. */
    long watermark() {
        return watermark;
    }

    void endOfStream() throws InterruptedException {
        for (RecordWriter writer : all) {
            writer.endOfStream();
        }
        for (ChainLink link : links) {
            link.event(Batch.END_OF_STREAM);
        }
    }
}
