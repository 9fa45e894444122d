package dev.flowscale.engine.state;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.state.KeyedStateBackend.StateTable;
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
                    backend.put(table, list);
                }
                backend.changed();
                list.add(value);
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
        return new MapState<>() {
            @SuppressWarnings("unchecked")
            private Map<K, V> current(boolean create) {
                Map<K, V> map = (Map<K, V>) backend.get(table);
                if (map == null && create) {
                    map = new HashMap<>();
                    backend.put(table, map);
                }
                return map;
            }

            @Override
            public V get(K key) {
                Map<K, V> map = current(false);
                return map == null ? null : map.get(key);
            }

            @Override
            public void put(K key, V value) {
                backend.changed();
                current(true).put(key, value);
            }

            @Override
            public void remove(K key) {
                Map<K, V> map = current(false);
                backend.changed();
                if (map != null && map.remove(key) != null && map.isEmpty()) {
                    backend.remove(table);
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
            public void clear() {
                backend.remove(table);
            }
        };
    }
}
