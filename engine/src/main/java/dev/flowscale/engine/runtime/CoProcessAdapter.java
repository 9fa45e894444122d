package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedCoProcessFunction;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;

/**
 * Runs a {@link KeyedCoProcessFunction} as a keyed function of one input: the task tells it which
 * input each batch came from (by its channel), and it calls the matching method. State, timers,
 * snapshots and rescaling are then those of any keyed operator.
 */
public final class CoProcessAdapter<K, I1, I2, O> extends KeyedProcessFunction<K, Object, O> {
    private final KeyedCoProcessFunction<K, I1, I2, O> function;
    private int input;

    public CoProcessAdapter(KeyedCoProcessFunction<K, I1, I2, O> function) {
        this.function = function;
    }

    /** Records processed from now on come from input {@code index} (0 or 1). */
    void input(int index) {
        this.input = index;
    }

    @Override
    public void open(KeyedRuntimeContext context) throws Exception {
        function.open(context);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void processElement(Object value, Context<K> context, Collector<O> out)
            throws Exception {
        if (input == 0) {
            function.processElement1((I1) value, context, out);
        } else {
            function.processElement2((I2) value, context, out);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<K> context, Collector<O> out)
            throws Exception {
        function.onTimer(timestamp, context, out);
    }

    @Override
    public void close() throws Exception {
        function.close();
    }
}
