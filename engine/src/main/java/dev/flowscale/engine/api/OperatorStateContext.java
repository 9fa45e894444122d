package dev.flowscale.engine.api;

/**
 * Non-keyed list state of an operator instance, snapshotted with checkpoints. On restore at another
 * parallelism, an operator list is dealt round robin over the new instances; a union list is given
 * whole to every new instance.
 */
public interface OperatorStateContext {
    <T> ListState<T> operatorListState(StateDescriptor<T> descriptor);

    <T> ListState<T> unionListState(StateDescriptor<T> descriptor);
}
