package dev.flowscale.engine.api;

/** Extracts the key of a record; equal keys must have equal {@code hashCode()} in every JVM. */
@FunctionalInterface
public interface KeySelector<T, K> {
    K getKey(T value) throws Exception;
}
