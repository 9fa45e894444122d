package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointBarrier;

/** A group of records, or a control event, handed from one instance to another. */
final class Batch {
    enum Kind {
        DATA,
        BARRIER,
        /** A watermark: {@link #watermark} is the sender's event-time progress. */
        WATERMARK,
        /** The sender turned idle ({@link #watermark} 1) or active again (0). */
        IDLENESS,
        /** A latency marker ({@link #marker}): no records, never seen by user functions. */
        LATENCY_MARKER,
        END_OF_STREAM
    }

    static final Batch END_OF_STREAM = new Batch(Kind.END_OF_STREAM, null, 0);

    final Kind kind;
    final Object[] records;
    final int size;
    final CheckpointBarrier barrier;

    /** The records' event times, parallel to {@link #records}; null in jobs without event time. */
    final long[] timestamps;

    /**
     * The records' keys and their {@link dev.flowscale.engine.state.KeyGroups#keyHash hashes},
     * parallel to {@link #records}, as the producer computed them to route each record over a keyed
     * exchange; null on other edges. The consumer keys its state by them rather than by selecting
     * and hashing each key again.
     */
    final Object[] keys;

    final int[] keyHashes;

    final long watermark;

    /** The marker of a {@link Kind#LATENCY_MARKER} event; null otherwise. */
    final LatencyMarker marker;

    private Batch(Kind kind, Object[] records, int size) {
        this(kind, records, size, null, null, null, null, 0, null);
    }

    private Batch(
            Kind kind,
            Object[] records,
            int size,
            CheckpointBarrier barrier,
            long[] timestamps,
            Object[] keys,
            int[] keyHashes,
            long watermark,
            LatencyMarker marker) {
        this.kind = kind;
        this.records = records;
        this.size = size;
        this.barrier = barrier;
        this.timestamps = timestamps;
        this.keys = keys;
        this.keyHashes = keyHashes;
        this.watermark = watermark;
        this.marker = marker;
    }

    static Batch barrier(CheckpointBarrier barrier) {
        return new Batch(Kind.BARRIER, null, 0, barrier, null, null, null, 0, null);
    }

    static Batch data(Object[] records, int size) {
        return new Batch(Kind.DATA, records, size);
    }

    static Batch data(Object[] records, int size, long[] timestamps) {
        return new Batch(Kind.DATA, records, size, null, timestamps, null, null, 0, null);
    }

    /** Records routed by key, with their keys and key hashes; {@code timestamps} may be null. */
    static Batch keyed(
            Object[] records, int size, long[] timestamps, Object[] keys, int[] keyHashes) {
        return new Batch(Kind.DATA, records, size, null, timestamps, keys, keyHashes, 0, null);
    }

    static Batch watermark(long watermark) {
        return new Batch(Kind.WATERMARK, null, 0, null, null, null, null, watermark, null);
    }

    static Batch idleness(boolean idle) {
        return new Batch(Kind.IDLENESS, null, 0, null, null, null, null, idle ? 1 : 0, null);
    }

    static Batch marker(LatencyMarker marker) {
        return new Batch(Kind.LATENCY_MARKER, null, 0, null, null, null, null, 0, marker);
    }

    boolean isData() {
        return kind == Kind.DATA;
    }
}
