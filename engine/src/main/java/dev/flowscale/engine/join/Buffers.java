package dev.flowscale.engine.join;

import dev.flowscale.engine.api.MapState;
import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * A join side's buffered records of the current key, grouped by a long (an event time or a window
 * start). Groups are arrays of the record type, so a restored buffer reads back typed records.
 */
final class Buffers {
    private Buffers() {}

    /** The array class of {@code type}, which a state descriptor needs to restore typed groups. */
    @SuppressWarnings("unchecked")
    static <T> Class<T[]> arrayOf(Class<T> type) {
        return (Class<T[]>) Array.newInstance(type, 0).getClass();
    }

    static <T> void append(MapState<Long, T[]> buffer, long group, T record, Class<T> type) {
        T[] existing = buffer.get(group);
        T[] grown;
        if (existing == null) {
            grown = newArray(type, 1);
        } else {
            grown = Arrays.copyOf(existing, existing.length + 1);
        }
        grown[grown.length - 1] = record;
        buffer.put(group, grown);
    }

    @SuppressWarnings("unchecked")
    private static <T> T[] newArray(Class<T> type, int length) {
        return (T[]) Array.newInstance(type, length);
    }
}
