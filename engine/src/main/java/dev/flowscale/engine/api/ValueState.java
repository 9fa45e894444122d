package dev.flowscale.engine.api;

/** A single value scoped to the current key. */
public interface ValueState<T> {
    /** The current key's value, or null if it has none. */
    T value();

    void update(T value);

    void clear();
}
