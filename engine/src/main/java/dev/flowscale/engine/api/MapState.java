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

    /**
     * The current key's map keys (empty if none), read-only; change the state only after the
     * iteration (on RocksDB this is a copy taken now, on the heap a view).
     */
    Iterable<K> keys();

    /** The current key's map values (empty if none), read-only, like {@link #keys()}. */
    Iterable<V> values();

    /** Whether the current key has no entry; on RocksDB it reads at most one entry. */
    boolean isEmpty();

    void clear();
}
