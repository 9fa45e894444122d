package dev.flowscale.engine.api;

/** The runtime context of a keyed operator: it hands out state scoped to the current key. */
public interface KeyedRuntimeContext extends RuntimeContext, OperatorStateContext {
    <T> ValueState<T> valueState(StateDescriptor<T> descriptor);

    /**
     * A value state of longs held unboxed; {@code descriptor} is {@code StateDescriptor.value(name,
     * Long.class)}, the descriptor of the same state as a {@code ValueState<Long>}.
     */
    LongValueState longValueState(StateDescriptor<Long> descriptor);

    <T> ListState<T> listState(StateDescriptor<T> descriptor);

    <K, V> MapState<K, V> mapState(StateDescriptor<V> descriptor);
}
