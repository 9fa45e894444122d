package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map state in RocksDB with one entry per map key (see {@link RocksDbStates}): get, put, remove
 * and contains touch one entry; entries and clear scan the current key's prefix only.
 */
final class RocksDbMapState<K, V> implements MapState<K, V> {
    private final KeyedStateBackend backend;
    private final RocksDbKeyedStore store;
    private final RocksDbKeyedStore.Column column;
    private final StateDescriptor<?> descriptor;

    RocksDbMapState(KeyedStateBackend backend, KeyedStateBackend.StateTable table) {
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
        try {
            store.scan(
                    column,
                    backend.currentKeyBytes(),
                    (mapKey, value) -> {
                        entries.put(
                                decode(mapKey, descriptor.keyType()),
                                decode(value, descriptor.valueType()));
                        return true;
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(entries);
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
