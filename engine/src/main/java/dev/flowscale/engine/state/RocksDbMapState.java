package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A map state in RocksDB with one entry per map key (see {@link RocksDbStates}): get, put, remove
 * and contains touch one entry; entries, keys, values and clear scan the current key's prefix only
 * (keys and values decode only their half of each entry), isEmpty reads at most one entry.
 */
final class RocksDbMapState<K, V> implements MapState<K, V> {
    private final KeyedStateBackend backend;
    private final RocksDbKeyedStore store;
    private final RocksDbKeyedStore.Column column;
    private final StateDescriptor<?> descriptor;

    RocksDbMapState(KeyedStateBackend backend, StateTable table) {
        this.backend = backend;
        this.store = backend.store();
        this.column = table.column;
        this.descriptor = table.descriptor();
    }

    @Override
    public V get(K key) {
        byte[] bytes = store.get(column, entryKey(key));
        return bytes == null ? null : decode(bytes, descriptor.valueType());
    }

    @Override
    public void put(K key, V value) {
        backend.changed();
        store.put(column, entryKey(key), RocksDbStates.encode(value));
    }

    @Override
    public void remove(K key) {
        backend.changed();
        store.delete(column, entryKey(key));
    }

    @Override
    public boolean contains(K key) {
        return store.get(column, entryKey(key)) != null;
    }

    @Override
    public Map<K, V> entries() {
        Map<K, V> entries = new LinkedHashMap<>();
        scan(
                (mapKey, value) -> {
                    entries.put(
                            decode(mapKey, descriptor.keyType()),
                            decode(value, descriptor.valueType()));
                    return true;
                });
        return Collections.unmodifiableMap(entries);
    }

    /** Decodes only the map keys of the current key's entries. */
    @Override
    public Iterable<K> keys() {
        return collect((mapKey, value) -> decode(mapKey, descriptor.keyType()));
    }

    /** Decodes only the map values of the current key's entries. */
    @Override
    public Iterable<V> values() {
        return collect((mapKey, value) -> decode(value, descriptor.valueType()));
    }

    /** One item per entry of the current key, in map-key byte order, read-only. */
    private <T> List<T> collect(BiFunction<byte[], byte[], T> item) {
        List<T> items = new ArrayList<>();
        scan(
                (mapKey, value) -> {
                    items.add(item.apply(mapKey, value));
                    return true;
                });
        return Collections.unmodifiableList(items);
    }

    /** Stops the prefix scan at the first entry. */
    @Override
    public boolean isEmpty() {
        return scan((mapKey, value) -> false) == 0;
    }

    /** Visits the current key's entries, in map-key byte order; returns how many it visited. */
    private int scan(PrefixScans.Visitor visitor) {
        try {
            return store.scan(column, backend.currentKeyBytes(), visitor);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void clear() {
        backend.changed();
        store.deletePrefix(column, backend.currentKeyBytes());
    }

    private byte[] entryKey(K key) {
        return RocksDbStates.mapKey(backend.currentKeyBytes(), key);
    }

    @SuppressWarnings("unchecked")
    private <T> T decode(byte[] bytes, Class<?> type) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return (T) StateCodec.read(in, type);
        } catch (IOException e) {
            throw new EngineException(
                    "state '"
                            + descriptor.name()
                            + "': cannot decode a map entry as "
                            + type.getSimpleName()
                            + " ("
                            + e.getMessage()
                            + "); the state's shape changed",
                    e);
        }
    }
}
