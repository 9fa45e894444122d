package dev.flowscale.engine.api;

import java.util.List;

/** One source instance's reader; called from that instance's thread only. */
public interface SourceReader<T> {

    /** Returned by {@link #poll} when the reader has no more records, ever. */
    int END_OF_INPUT = -1;

    /**
     * Emits up to {@code max} records into {@code out}.
     *
     * @return how many were emitted; 0 if none is due yet; {@link #END_OF_INPUT} when done
     */
    int poll(Collector<T> out, int max) throws Exception;

    /** When {@link #poll} returned 0: how long until the next record is due, in nanoseconds. */
    default long nanosUntilNext() {
        return 1_000_000L;
    }

    /**
     * Records due by now but not yet emitted (the analogue of a Kafka consumer's lag). Called from
     * the metrics thread too, also while the reader is blocked emitting: keep it thread-safe.
     *
     * <p>Null says the reader cannot tell what it owes (a Kafka reader that does not know a
     * partition's log end yet, or whose brokers do not answer): the autoscaler reports "no backlog
     * signal" and holds, where 0 would read as nothing owed. Null is the one encoding of this
     * unknown from here to the runner's metrics ({@code MetricsView.InstanceCounts#backlog}).
     *
     * @return the records owed (0 or more), or null while the reader cannot tell; a negative value
     *     is an error that fails the source's task, naming it
     */
    default Long backlog() {
        return 0L;
    }

    /**
     * The reader's position as splits, taken when a checkpoint barrier passes the source; null if
     * the source cannot be replayed.
     */
    default List<?> snapshotSplits() {
        return null;
    }

    default void close() throws Exception {}
}
