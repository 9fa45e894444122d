package dev.flowscale.engine.api;

/** Where an operator emits its records. */
@FunctionalInterface
public interface Collector<T> {
    void collect(T record);
}
