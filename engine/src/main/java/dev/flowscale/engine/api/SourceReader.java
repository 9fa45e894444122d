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

    /**
     * Whether the reader does its work per call (a Kafka consumer's fetch: a round of requests and
     * responses whatever their size) in {@link #fetch}, apart from {@link #poll}'s per-record work.
     * Asked once, when the reader opens.
     */
    default boolean fetchesApart() {
        return false;
    }

    /**
     * Called before each {@link #poll} when {@link #fetchesApart}: readies records for it. A fetch
     * costs about the same whether it brings 1 record or a full batch, so the engine counts its
     * time as useful only in the share returned: the records it readied over the records a full
     * fetch brings (0 to 1). That is what the fetch would cost those records in full batches, as
     * when the source runs at its capacity; counted whole at a low input, the per-record cost would
     * rise as the batches shrink, and a load drop would look like a loss of capacity.
     *
     * @param max the most records the next poll may emit
     * @return the share of this fetch's time that counts as useful, 0 to 1
     */
    default double fetch(int max) throws Exception {
        return 0;
    }

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
