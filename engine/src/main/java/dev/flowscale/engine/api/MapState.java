package dev.flowscale.engine.api;

import java.util.Map;

/** A map scoped to the current key. */
public interface MapState<K, V> {
    V get(K key);

    void put(K key, V value);

    void remove(K key);

    boolean contains(K key);

    /** The current key's entries (empty if none); a read-only view. */
    Map<K, V> entries();

    void clear();
}
