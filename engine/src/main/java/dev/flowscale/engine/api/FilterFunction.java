package dev.flowscale.engine.api;

/** Keeps the records for which it returns true. Shared by all instances: keep it stateless. */
@FunctionalInterface
public interface FilterFunction<T> {
    boolean filter(T value) throws Exception;
}
