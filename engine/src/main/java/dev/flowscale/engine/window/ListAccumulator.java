package dev.flowscale.engine.window;

import dev.flowscale.engine.api.AggregateFunction;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps every record of a window, for window functions that need them all. In state the list is an
 * array of the element type, so that a restored window reads back typed elements.
 */
final class ListAccumulator<T> implements AggregateFunction<T, Object, List<T>> {
    private final Class<?> arrayType;

    ListAccumulator(Class<T> elementType) {
        this.arrayType = Array.newInstance(elementType, 0).getClass();
    }

    /** The class a snapshot restores the accumulator as. */
    Class<?> stateType() {
        return arrayType;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object acc) {
        return acc instanceof Object[] restored
                ? new ArrayList<>(Arrays.asList((T[]) restored))
                : (List<T>) acc;
    }

    @Override
    public Object createAccumulator() {
        return new ArrayList<T>();
    }

    @Override
    public Object add(T value, Object accumulator) {
        List<T> list = list(accumulator);
        list.add(value);
        return list;
    }

    @Override
    public List<T> getResult(Object accumulator) {
        return List.copyOf(list(accumulator));
    }

    @Override
    public Object merge(Object a, Object b) {
        List<T> merged = list(a);
        merged.addAll(list(b));
        return merged;
    }
}
