package dev.flowscale.engine.runtime;

/** A group of records, or a control event, handed from one instance to another. */
final class Batch {
    enum Kind { DATA, END_OF_STREAM }

    static final Batch END_OF_STREAM = new Batch(Kind.END_OF_STREAM, null, 0);

    final Kind kind;
    final Object[] records;
    final int size;

    private Batch(Kind kind, Object[] records, int size) {
        this.kind = kind;
        this.records = records;
        this.size = size;
    }

    static Batch data(Object[] records, int size) {
        return new Batch(Kind.DATA, records, size);
    }

    boolean isData() {
        return kind == Kind.DATA;
    }
}
