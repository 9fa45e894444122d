package dev.flowscale.engine.join;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.JoinFunction;
import dev.flowscale.engine.api.KeyedProcessFunction.Context;
import dev.flowscale.engine.api.KeyedProcessFunction.OnTimerContext;
import java.util.ArrayList;
import java.util.Map;

/**
 * Joins a left record at time t with every right record of the same key at a time in {@code [t +
 * lower, t + upper]} (both bounds inclusive, as Flink's interval join). Each side's records wait in
 * keyed state until the watermark shows no partner can still come; records at or behind the
 * watermark (which promises that none will come) are late and dropped.
 */
public final class IntervalJoin<K, A, B, O> extends BufferedJoin<K, A, B, O> {
    private final long lower;
    private final long upper;

    /** What the join does: the bounds in ms, the function and the two record types. */
    public record Spec<A, B, O>(
            long lowerMillis,
            long upperMillis,
            JoinFunction<A, B, O> join,
            Class<A> leftType,
            Class<B> rightType) {}

    public IntervalJoin(Spec<A, B, O> spec) {
        super(spec.join(), spec.leftType(), spec.rightType());
        this.lower = spec.lowerMillis();
        this.upper = spec.upperMillis();
    }

    @Override
    public void processElement1(A value, Context<K> ctx, Collector<O> out) throws Exception {
        long t = ctx.timestamp();
        if (t <= ctx.timerService().currentWatermark()) {
            return;
        }
        bufferLeft(t, value);
        ctx.timerService().registerEventTimeTimer(t + upper);
        for (Map.Entry<Long, B[]> e : right.entries().entrySet()) {
            if (e.getKey() >= t + lower && e.getKey() <= t + upper) {
                for (B b : e.getValue()) {
                    emit(value, b, out);
                }
            }
        }
    }

    @Override
    public void processElement2(B value, Context<K> ctx, Collector<O> out) throws Exception {
        long t = ctx.timestamp();
        if (t <= ctx.timerService().currentWatermark()) {
            return;
        }
        bufferRight(t, value);
        ctx.timerService().registerEventTimeTimer(t - lower);
        for (Map.Entry<Long, A[]> e : left.entries().entrySet()) {
            if (e.getKey() >= t - upper && e.getKey() <= t - lower) {
                for (A a : e.getValue()) {
                    emit(a, value, out);
                }
            }
        }
    }

    /** Drops the records no later partner can match any more. */
    @Override
    public void onTimer(long time, OnTimerContext<K> ctx, Collector<O> out) {
        for (Long t : new ArrayList<>(left.entries().keySet())) {
            if (t + upper <= time) {
                left.remove(t);
            }
        }
        for (Long t : new ArrayList<>(right.entries().keySet())) {
            if (t - lower <= time) {
                right.remove(t);
            }
        }
    }
}
