package dev.flowscale.engine.api;

/** The runtime context of a keyed operator: it hands out state scoped to the current key. */
public interface KeyedRuntimeContext extends RuntimeContext, OperatorStateContext {
    <T> ValueState<T> valueState(StateDescriptor<T> descriptor);

    <T> ListState<T> listState(StateDescriptor<T> descriptor);

    <K, V> MapState<K, V> mapState(StateDescriptor<V> descriptor);
}
