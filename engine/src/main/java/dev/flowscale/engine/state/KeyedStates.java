package dev.flowscale.engine.state;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.ValueState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Value, list and map state views over a {@link KeyedStateBackend}, scoped to its current key. */
public final class KeyedStates {
    private KeyedStates() {}

    public static <T> ValueState<T> value(KeyedStateBackend backend, StateTable table) {
        return new ValueState<>() {
            @Override
            @SuppressWarnings("unchecked")
            public T value() {
                return (T) backend.get(table);
            }

            @Override
            public void update(T value) {
                if (value == null) {
                    backend.remove(table);
                } else {
                    backend.put(table, value);
                }
            }

            @Override
            public void clear() {
                backend.remove(table);
            }
        };
    }

    public static <T> ListState<T> list(KeyedStateBackend backend, StateTable table) {
        return new ListState<>() {
            @Override
            @SuppressWarnings("unchecked")
            public List<T> get() {
                List<T> list = (List<T>) backend.get(table);
                return list == null ? List.of() : Collections.unmodifiableList(list);
            }

            @Override
            @SuppressWarnings("unchecked")
            public void add(T value) {
                List<T> list = (List<T>) backend.get(table);
                if (list == null) {
                    list = new ArrayList<>();
                }
                list.add(value);
                // Written back: RocksDB handed out a decoded copy (on the heap it is the same
                // list).
                backend.put(table, list);
            }

            @Override
            public void update(List<T> values) {
                if (values == null || values.isEmpty()) {
                    backend.remove(table);
                } else {
                    backend.put(table, new ArrayList<>(values));
                }
            }

            @Override
            public void clear() {
                backend.remove(table);
            }
        };
    }

    public static <K, V> MapState<K, V> map(KeyedStateBackend backend, StateTable table) {
        if (backend.store() != null) {
            return new RocksDbMapState<>(backend, table);
        }
        return new MapState<>() {
            @SuppressWarnings("unchecked")
            private Map<K, V> current(boolean create) {
                Map<K, V> map = (Map<K, V>) backend.get(table);
                return map == null && create ? new HashMap<>() : map;
            }

            @Override
            public V get(K key) {
                Map<K, V> map = current(false);
                return map == null ? null : map.get(key);
            }

            @Override
            public void put(K key, V value) {
                Map<K, V> map = current(true);
                map.put(key, value);
                backend.put(table, map);
            }

            @Override
            public void remove(K key) {
                Map<K, V> map = current(false);
                if (map != null && map.remove(key) != null) {
                    if (map.isEmpty()) {
                        backend.remove(table);
                    } else {
                        backend.put(table, map);
                    }
                }
            }

            @Override
            public boolean contains(K key) {
                Map<K, V> map = current(false);
                return map != null && map.containsKey(key);
            }

            @Override
            public Map<K, V> entries() {
                Map<K, V> map = current(false);
                return map == null ? Map.of() : Collections.unmodifiableMap(map);
            }

            @Override
            public Iterable<K> keys() {
                return entries().keySet();
            }

            @Override
            public Iterable<V> values() {
                return entries().values();
            }

            @Override
            public boolean isEmpty() {
                Map<K, V> map = current(false);
                return map == null || map.isEmpty();
            }

            @Override
            public void clear() {
                backend.remove(table);
            }
        };
    }
}
