package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointBarrier;

/** A group of records, or a control event, handed from one instance to another. */
final class Batch {
    enum Kind {
        DATA,
        BARRIER,
        END_OF_STREAM
    }

    static final Batch END_OF_STREAM = new Batch(Kind.END_OF_STREAM, null, 0);

    final Kind kind;
    final Object[] records;
    final int size;
    final CheckpointBarrier barrier;

    private Batch(Kind kind, Object[] records, int size) {
        this(kind, records, size, null);
    }

    private Batch(Kind kind, Object[] records, int size, CheckpointBarrier barrier) {
        this.kind = kind;
        this.records = records;
        this.size = size;
        this.barrier = barrier;
    }

    static Batch barrier(CheckpointBarrier barrier) {
        return new Batch(Kind.BARRIER, null, 0, barrier);
    }

    static Batch data(Object[] records, int size) {
        return new Batch(Kind.DATA, records, size);
    }

    boolean isData() {
        return kind == Kind.DATA;
    }
}
