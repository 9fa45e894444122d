package com.example.jobs;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;

/** Sums the values of each key in keyed state and emits the running sum. */
public class SumPerKey extends KeyedProcessFunction<Long, Long, Long> {
    private ValueState<Long> sum;

    @Override
    public void open(KeyedRuntimeContext context) {
        sum = context.valueState(StateDescriptor.value("sum", Long.class));
    }

    @Override
    public void processElement(Long value, Context<Long> context, Collector<Long> out) {
        long next = (sum.value() == null ? 0 : sum.value()) + value;
        sum.update(next);
        out.collect(next);
    }
}
