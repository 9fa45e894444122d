package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;

/**
 * The collector an operator instance emits into: it counts records out and feeds every
 * outgoing edge's writer.
 */
final class TaskOutput implements Collector<Object> {
    private final RecordWriter[] writers;
    private long emitted;

    TaskOutput(RecordWriter[] writers) {
        this.writers = writers;
    }

    @Override
    public void collect(Object record) {
        emitted++;
        try {
            for (RecordWriter writer : writers) {
                writer.emit(record);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted while emitting");
        }
    }

    /** Records emitted since the last call. */
    long takeEmitted() {
        long n = emitted;
        emitted = 0;
        return n;
    }

    void flush() throws InterruptedException {
        for (RecordWriter writer : writers) {
            writer.flush();
        }
    }

    void endOfStream() throws InterruptedException {
        for (RecordWriter writer : writers) {
            writer.endOfStream();
        }
    }
}
