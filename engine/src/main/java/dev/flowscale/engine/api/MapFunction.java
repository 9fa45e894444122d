package dev.flowscale.engine.api;

/** One record in, one record out. Shared by all instances of its operator: keep it stateless. */
@FunctionalInterface
public interface MapFunction<I, O> {
    O map(I value) throws Exception;
}
