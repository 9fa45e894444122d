package dev.flowscale.engine.api;

/**
 * Folds the records of a window into an accumulator, one record at a time, and reads the result
 * when the window fires. {@link #merge} combines the accumulators of two session windows that a
 * record joined.
 */
public interface AggregateFunction<I, A, O> {
    A createAccumulator();

    A add(I value, A accumulator);

    O getResult(A accumulator);

    A merge(A a, A b);
}
