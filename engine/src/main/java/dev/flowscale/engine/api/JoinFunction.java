package dev.flowscale.engine.api;

/** Makes the output of one joined pair: a record of each input with the same key. */
@FunctionalInterface
public interface JoinFunction<A, B, O> {
    O join(A left, B right) throws Exception;
}
