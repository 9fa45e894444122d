package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;

/** What one instance of a non-source operator does with each record. */
interface OperatorLogic {
    default void open() throws Exception {}

    void process(Object record, Collector<Object> out) throws Exception;

    /** The barrier of snapshot {@code checkpointId} passes this instance; its state comes next. */
    default void snapshotState(long checkpointId) throws Exception {}

    /** Snapshot {@code checkpointId} is complete; called from the job's coordinator thread. */
    default void checkpointComplete(long checkpointId) throws Exception {}

    default void close() throws Exception {}
}
