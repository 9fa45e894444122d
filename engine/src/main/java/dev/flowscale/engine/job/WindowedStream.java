package dev.flowscale.engine.job;

import dev.flowscale.engine.api.AggregateFunction;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.window.WindowAssigner;
import dev.flowscale.engine.window.WindowFunction;
import dev.flowscale.engine.window.WindowOperator;
import java.time.Duration;
import java.util.List;

/**
 * A keyed stream cut into event-time windows; finish it with {@link #aggregate} or {@link
 * #process}. The job's source needs a watermark strategy.
 */
public final class WindowedStream<T, K> {
    private final KeyedStream<T, K> input;
    private final WindowAssigner assigner;
    private long latenessMillis;
    private OutputTag<T> lateTag;

    WindowedStream(KeyedStream<T, K> input, WindowAssigner assigner) {
        this.input = input;
        this.assigner = assigner;
    }

    /**
     * Keeps fired windows for {@code lateness} past their end: a late record within it fires its
     * window again with the record added. Default zero.
     */
    public WindowedStream<T, K> allowedLateness(Duration lateness) {
        if (lateness == null || lateness.isNegative()) {
            throw new InvalidJobException(
                    "allowedLateness: " + lateness + " is not a duration >= 0; use Duration.ZERO");
        }
        this.latenessMillis = lateness.toMillis();
        return this;
    }

    /**
     * Sends records too late for any window to side output {@code tag}; read them with {@code
     * sideOutput(tag)} on the stream this window returns. Without it they are dropped.
     */
    public WindowedStream<T, K> sideOutputLateData(OutputTag<T> tag) {
        this.lateTag = tag;
        return this;
    }

    /** Folds each window's records with {@code aggregate} and emits the result when it fires. */
    public <A, R> DataStream<R> aggregate(
            String id, AggregateFunction<T, A, R> aggregate, Class<A> accumulatorType) {
        return aggregate(
                id, aggregate, accumulatorType, (key, window, result, out) -> out.collect(result));
    }

    /** Folds each window's records; {@code function} turns the result into output. */
    public <A, R, O> DataStream<O> aggregate(
            String id,
            AggregateFunction<T, A, R> aggregate,
            Class<A> accumulatorType,
            WindowFunction<R, O, K> function) {
        var spec =
                new WindowOperator.Spec<>(
                        assigner, aggregate, accumulatorType, function, latenessMillis, lateTag);
        return input.process(id, () -> new WindowOperator<>(spec));
    }

    /** Hands {@code function} all records of each window when it fires. */
    public <O> DataStream<O> process(
            String id, WindowFunction<List<T>, O, K> function, Class<T> elementType) {
        return input.process(
                id,
                () ->
                        WindowOperator.allRecords(
                                assigner, elementType, function, latenessMillis, lateTag));
    }
}
