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
                    list.add(value);
                    backend.put(table, list);
                    return;
                }
                list.add(value);
                if (backend.store() != null) {
                    // Written back: RocksDB handed out a decoded copy.
                    backend.put(table, list);
                } else {
                    // The table's own list: changed in place, counted without a second look-up.
                    backend.changed();
                }
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
            private Map<K, V> current() {
                return (Map<K, V>) backend.get(table);
            }

            @Override
            public V get(K key) {
                Map<K, V> map = current();
                return map == null ? null : map.get(key);
            }

            /**
             * A key's map is the table's own (a shared key group is copied as it is read), so one
             * already there is changed in place and only counted as a change: writing it back
             * looked the key up again.
             */
            @Override
            public void put(K key, V value) {
                Map<K, V> map = current();
                if (map == null) {
                    map = new HashMap<>();
                    map.put(key, value);
                    backend.put(table, map);
                } else {
                    map.put(key, value);
                    backend.changed();
                }
            }

            @Override
            public void remove(K key) {
                Map<K, V> map = current();
                if (map != null && map.remove(key) != null) {
                    if (map.isEmpty()) {
                        backend.remove(table);
                    } else {
                        backend.changed();
                    }
                }
            }

            @Override
            public boolean contains(K key) {
                Map<K, V> map = current();
                return map != null && map.containsKey(key);
            }

            @Override
            public Map<K, V> entries() {
                Map<K, V> map = current();
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
                Map<K, V> map = current();
                return map == null || map.isEmpty();
            }

            @Override
            public void clear() {
                backend.remove(table);
            }
        };
    }
}
