package dev.flowscale.engine.api;

import java.util.List;

/** A list scoped to the current key. */
public interface ListState<T> {
    /** The current key's elements (empty if none); a read-only view. */
    List<T> get();

    void add(T value);

    void update(List<T> values);

    void clear();
}
