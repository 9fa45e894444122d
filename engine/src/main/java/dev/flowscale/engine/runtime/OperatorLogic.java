package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;

/** What one instance of a non-source operator does with each record. */
interface OperatorLogic {
    default void open() throws Exception {}

    void process(Object record, Collector<Object> out) throws Exception;

    default void close() throws Exception {}
}
