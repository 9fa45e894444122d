package dev.flowscale.engine.api;

/**
 * Consumes the records that reach a sink. One object serves every instance of its sink, so it must
 * be thread-safe.
 */
@FunctionalInterface
public interface SinkFunction<T> {
    void invoke(T value) throws Exception;
}
