package com.example.pageviews;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;

/** Counts the views of each page in keyed state and emits the page's new count. */
public final class CountPerPage extends KeyedProcessFunction<String, Click, PageCount> {
    /** The views of the current page; its name is part of the savepoint format: keep it. */
    public static final StateDescriptor<Long> VIEWS = StateDescriptor.value("views", Long.class);

    private ValueState<Long> views;

    @Override
    public void open(KeyedRuntimeContext context) {
        views = context.valueState(VIEWS);
    }

    @Override
    public void processElement(Click click, Context<String> context, Collector<PageCount> out) {
        long next = (views.value() == null ? 0 : views.value()) + 1;
        views.update(next);
        out.collect(new PageCount(context.currentKey(), next));
    }
}
