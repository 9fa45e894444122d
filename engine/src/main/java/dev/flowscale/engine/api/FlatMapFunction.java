package dev.flowscale.engine.api;

/** One record in, any number out. Shared by all instances of its operator: keep it stateless. */
@FunctionalInterface
public interface FlatMapFunction<I, O> {
    void flatMap(I value, Collector<O> out) throws Exception;
}
