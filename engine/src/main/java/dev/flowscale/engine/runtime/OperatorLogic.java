package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;

/** What one instance of a non-source operator does with each record. */
interface OperatorLogic {
    default void open() throws Exception {}

    void process(Object record, Collector<Object> out) throws Exception;

    /**
     * A record that came over a keyed exchange, with the key its producer selected and that key's
     * {@link dev.flowscale.engine.state.KeyGroups#keyHash hash}; logic that keys nothing ignores
     * them.
     */
    default void processKeyed(Object record, Object key, int keyHash, Collector<Object> out)
            throws Exception {
        process(record, out);
    }

    /** The barrier of snapshot {@code checkpointId} passes this instance; its state comes next. */
    default void snapshotState(long checkpointId) throws Exception {}

    /** Snapshot {@code checkpointId} is complete; called from the job's coordinator thread. */
    default void checkpointComplete(long checkpointId) throws Exception {}

    /**
     * Whether the logic acts on {@link #checkpointComplete} (a two-phase-commit sink): it then
     * opens only once the snapshot it restores is durable ({@link
     * dev.flowscale.engine.checkpoint.RestoredState.InstanceRestore#awaitDurable}), and a bounded
     * run ends with a final checkpoint ({@link FinalCheckpoint}).
     */
    default boolean commitsOnCheckpoints() {
        return false;
    }

    /** The records that follow (a batch) came in on input channel {@code channel}. */
    default void onBatchFrom(int channel) {}

    /** The instance's watermark advanced: fire the event-time timers it passed. */
    default void onWatermark(long watermark, TaskOutput out) throws Exception {}

    /** When the earliest processing-time timer is due (epoch ms); {@link Long#MAX_VALUE}: none. */
    default long nextProcessingTimer() {
        return Long.MAX_VALUE;
    }

    /** The wall clock reached {@code now}: fire the processing-time timers due by then. */
    default void onProcessingTime(long now, TaskOutput out) throws Exception {}

    /** Hands the logic its task's output (for the current record's timestamp); before open. */
    default void connect(TaskOutput out) {}

    /** Writes what the logic keeps outside keyed state into it; just before a snapshot. */
    default void beforeSnapshot() {}

    default void close() throws Exception {}
}
