package dev.flowscale.engine.window;

import dev.flowscale.engine.api.Collector;

/** Turns a fired window's aggregate into output, knowing the key and the window. */
@FunctionalInterface
public interface WindowFunction<R, O, K> {
    void apply(K key, TimeWindow window, R result, Collector<O> out) throws Exception;
}
