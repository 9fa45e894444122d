package dev.flowscale.engine.window;

import dev.flowscale.engine.api.AggregateFunction;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Event-time windows of a keyed stream, built on keyed state and timers: each key's open windows
 * and their accumulators are a map state, and an event-time timer at a window's last timestamp
 * fires it. With allowed lateness a fired window is kept until the watermark passes its end plus
 * the lateness, and each late record fires it again with the record added; records later than that
 * go to the late side output, or are dropped without one.
 */
public final class WindowOperator<K, T, A, R, O> extends KeyedProcessFunction<K, T, O> {
    private final WindowAssigner assigner;
    private final AggregateFunction<T, A, R> aggregate;
    private final Class<A> accumulatorType;
    private final WindowFunction<R, O, K> function;
    private final long lateness;
    private final OutputTag<T> lateTag;
    private MapState<TimeWindow, A> windows;

    /** What the operator does; one object per instance (it holds the state views). */
    public record Spec<K, T, A, R, O>(
            WindowAssigner assigner,
            AggregateFunction<T, A, R> aggregate,
            Class<A> accumulatorType,
            WindowFunction<R, O, K> function,
            long allowedLatenessMillis,
            OutputTag<T> lateTag) {}

    public WindowOperator(Spec<K, T, A, R, O> spec) {
        this.assigner = spec.assigner();
        this.aggregate = spec.aggregate();
        this.accumulatorType = spec.accumulatorType();
        this.function = spec.function();
        this.lateness = spec.allowedLatenessMillis();
        this.lateTag = spec.lateTag();
    }

    /** A window operator that hands {@code function} every record of a window. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <K, T, O> WindowOperator<K, T, Object, List<T>, O> allRecords(
            WindowAssigner assigner,
            Class<T> elementType,
            WindowFunction<List<T>, O, K> function,
            long allowedLatenessMillis,
            OutputTag<T> lateTag) {
        ListAccumulator<T> list = new ListAccumulator<>(elementType);
        return new WindowOperator<>(
                new Spec<>(
                        assigner,
                        list,
                        (Class) list.stateType(),
                        function,
                        allowedLatenessMillis,
                        lateTag));
    }

    @Override
    public void open(KeyedRuntimeContext context) {
        windows =
                context.mapState(
                        StateDescriptor.map(
                                "__flowscale.windows", TimeWindow.class, accumulatorType));
    }

    @Override
    public void processElement(T value, Context<K> ctx, Collector<O> out) throws Exception {
        long timestamp = ctx.timestamp();
        if (timestamp == Long.MIN_VALUE) {
            throw new EngineException(
                    "window: a record has no event time; give the job's source a "
                            + "WatermarkStrategy (JobBuilder.source(id, source, strategy))");
        }
        boolean added =
                assigner.merging()
                        ? addToSession(value, timestamp, ctx, out)
                        : addToWindows(value, timestamp, ctx, out);
        if (!added && lateTag != null) {
            ctx.output(lateTag, value);
        }
    }

    private boolean addToWindows(T value, long timestamp, Context<K> ctx, Collector<O> out)
            throws Exception {
        boolean added = false;
        long slide = assigner.slideMillis();
        for (long start = assigner.lastStart(timestamp);
                assigner.holds(start, timestamp);
                start -= slide) {
            TimeWindow window = new TimeWindow(start, start + assigner.sizeMillis());
            if (!isLate(window, ctx)) {
                A acc = windows.get(window);
                windows.put(
                        window,
                        aggregate.add(value, acc == null ? aggregate.createAccumulator() : acc));
                if (acc == null) {
                    schedule(window, ctx, out);
                } else if (window.maxTimestamp() <= ctx.timerService().currentWatermark()) {
                    // A late record within lateness fires its window again.
                    emit(window, ctx.currentKey(), out);
                }
                // Otherwise the window's timers were registered with its first record.
                added = true;
            }
        }
        return added;
    }

    /** Adds the record's session to the key's sessions, merging every one it touches. */
    private boolean addToSession(T value, long timestamp, Context<K> ctx, Collector<O> out)
            throws Exception {
        TimeWindow session = assigner.assign(timestamp).get(0);
        List<TimeWindow> touched = new ArrayList<>();
        for (TimeWindow existing : windows.entries().keySet()) {
            if (existing.intersects(session)) {
                session = session.cover(existing);
                touched.add(existing);
            }
        }
        if (isLate(session, ctx)) {
            return false;
        }
        A acc = aggregate.add(value, aggregate.createAccumulator());
        for (TimeWindow merged : touched) {
            acc = aggregate.merge(windows.get(merged), acc);
            windows.remove(merged);
        }
        // Timers of merged windows stay; when they fire they find no window ending there.
        windows.put(session, acc);
        schedule(session, ctx, out);
        return true;
    }

    private boolean isLate(TimeWindow window, Context<K> ctx) {
        return window.maxTimestamp() + lateness <= ctx.timerService().currentWatermark();
    }

    /** A window the watermark already passed fires at once (a late record within lateness). */
    private void schedule(TimeWindow window, Context<K> ctx, Collector<O> out) throws Exception {
        if (window.maxTimestamp() <= ctx.timerService().currentWatermark()) {
            emit(window, ctx.currentKey(), out);
        } else {
            ctx.timerService().registerEventTimeTimer(window.maxTimestamp());
        }
        if (lateness > 0) {
            ctx.timerService().registerEventTimeTimer(window.maxTimestamp() + lateness);
        }
    }

    /**
     * A timer at {@code time} fires the window whose last timestamp it is and drops the window
     * whose lateness it ends. Fixed-size windows are found from the time alone; a key's sessions
     * vary in length, so they are scanned, without a copy: at most one ends at any time, since a
     * key's sessions never touch.
     */
    @Override
    public void onTimer(long time, OnTimerContext<K> ctx, Collector<O> out) throws Exception {
        if (assigner.merging()) {
            fireSessions(time, ctx.currentKey(), out);
        } else {
            fireFixed(time, ctx.currentKey(), out);
        }
    }

    private void fireFixed(long time, K key, Collector<O> out) throws Exception {
        TimeWindow due = endingAt(time);
        A acc = windows.get(due);
        if (acc != null) {
            function.apply(key, due, aggregate.getResult(acc), out);
        }
        if (lateness == 0) {
            if (acc != null) {
                windows.remove(due);
            }
        } else {
            // Checked first: on RocksDB removing a window that is not there still writes.
            TimeWindow expired = endingAt(time - lateness);
            if (windows.contains(expired)) {
                windows.remove(expired);
            }
        }
    }

    /** The fixed-size window whose last timestamp is {@code maxTimestamp}. */
    private TimeWindow endingAt(long maxTimestamp) {
        return new TimeWindow(maxTimestamp + 1 - assigner.sizeMillis(), maxTimestamp + 1);
    }

    private void fireSessions(long time, K key, Collector<O> out) throws Exception {
        TimeWindow due = null;
        TimeWindow expired = null;
        for (TimeWindow session : windows.keys()) {
            if (session.maxTimestamp() == time) {
                due = session;
            }
            if (session.maxTimestamp() + lateness == time) {
                expired = session;
            }
        }
        if (due != null) {
            emit(due, key, out);
        }
        if (expired != null) {
            windows.remove(expired);
        }
    }

    private void emit(TimeWindow window, K key, Collector<O> out) throws Exception {
        function.apply(key, window, aggregate.getResult(windows.get(window)), out);
    }
}
