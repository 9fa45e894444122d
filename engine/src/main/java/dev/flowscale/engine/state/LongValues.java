package dev.flowscale.engine.state;

import dev.flowscale.engine.api.LongValueState;

/**
 * {@link LongValueState} over a {@link KeyedStateBackend}, scoped to its current key: on the heap
 * straight into the key group's table of unboxed longs ({@link KeyGroupMap#forState}); in RocksDB
 * through the encoding of a {@code Long}, as a {@code ValueState<Long>} of the state reads it.
 */
public final class LongValues {
    private LongValues() {}

    public static LongValueState of(KeyedStateBackend backend, StateTable table) {
        return new LongValueState() {
            @Override
            public boolean exists() {
                KeyGroupMap heap = backend.heapGroup(table);
                return heap == null
                        ? backend.get(table) != null
                        : heap.contains(backend.currentKey(), backend.currentHash());
            }

            @Override
            public long valueOr(long absent) {
                KeyGroupMap heap = backend.heapGroup(table);
                if (heap == null) {
                    Object value = backend.get(table);
                    return value == null ? absent : (Long) value;
                }
                return heap.getLong(backend.currentKey(), backend.currentHash(), absent);
            }

            @Override
            public void update(long value) {
                KeyGroupMap heap = backend.heapGroup(table);
                if (heap == null) {
                    backend.put(table, value);
                    return;
                }
                backend.changed();
                heap.setLong(backend.currentKey(), backend.currentHash(), value);
            }

            @Override
            public long add(long delta) {
                KeyGroupMap heap = backend.heapGroup(table);
                if (heap == null) {
                    long next = valueOr(0) + delta;
                    backend.put(table, next);
                    return next;
                }
                backend.changed();
                return heap.addLong(backend.currentKey(), backend.currentHash(), delta);
            }

            @Override
            public void clear() {
                backend.remove(table);
            }
        };
    }
}
