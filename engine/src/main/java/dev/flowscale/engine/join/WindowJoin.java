package dev.flowscale.engine.join;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.JoinFunction;
import dev.flowscale.engine.api.KeyedProcessFunction.Context;
import dev.flowscale.engine.api.KeyedProcessFunction.OnTimerContext;
import dev.flowscale.engine.window.WindowAssigner;

/**
 * Joins the records of two inputs that share a key and a window (tumbling or sliding): when the
 * watermark passes a window's end, every pair of a left and a right record in it is emitted. Both
 * sides wait in keyed state by window start; records of windows already fired are dropped.
 */
public final class WindowJoin<K, A, B, O> extends BufferedJoin<K, A, B, O> {
    private final WindowAssigner assigner;

    /** What the join does: its windows, the function and the two record types. */
    public record Spec<A, B, O>(
            WindowAssigner assigner,
            JoinFunction<A, B, O> join,
            Class<A> leftType,
            Class<B> rightType) {
        public Spec {
            if (assigner.merging()) {
                throw new EngineException(
                        "window join: session windows cannot be joined; use tumbling or sliding windows");
            }
        }
    }

    public WindowJoin(Spec<A, B, O> spec) {
        super(spec.join(), spec.leftType(), spec.rightType());
        this.assigner = spec.assigner();
    }

    @Override
    public void processElement1(A value, Context<K> ctx, Collector<O> out) {
        long timestamp = ctx.timestamp();
        long slide = assigner.slideMillis();
        for (long start = assigner.lastStart(timestamp);
                assigner.holds(start, timestamp);
                start -= slide) {
            if (open(start, ctx)) {
                bufferLeft(start, value);
            }
        }
    }

    @Override
    public void processElement2(B value, Context<K> ctx, Collector<O> out) {
        long timestamp = ctx.timestamp();
        long slide = assigner.slideMillis();
        for (long start = assigner.lastStart(timestamp);
                assigner.holds(start, timestamp);
                start -= slide) {
            if (open(start, ctx)) {
                bufferRight(start, value);
            }
        }
    }

    /**
     * Whether the window starting at {@code start} has not fired yet; if so, its timer (at its last
     * timestamp) is registered.
     */
    private boolean open(long start, Context<?> ctx) {
        long maxTimestamp = start + assigner.sizeMillis() - 1;
        if (maxTimestamp <= ctx.timerService().currentWatermark()) {
            return false;
        }
        ctx.timerService().registerEventTimeTimer(maxTimestamp);
        return true;
    }

    /** A timer at a window's last timestamp names that window: it fires and is dropped. */
    @Override
    public void onTimer(long time, OnTimerContext<K> ctx, Collector<O> out) throws Exception {
        long start = time + 1 - assigner.sizeMillis();
        A[] as = left.get(start);
        B[] bs = right.get(start);
        emitPairs(as, bs, out);
        if (as != null) {
            left.remove(start);
        }
        if (bs != null) {
            right.remove(start);
        }
    }

    private void emitPairs(A[] as, B[] bs, Collector<O> out) throws Exception {
        if (as == null || bs == null) {
            return;
        }
        for (A a : as) {
            for (B b : bs) {
                emit(a, b, out);
            }
        }
    }
}
