package dev.flowscale.engine.job;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.JoinFunction;
import dev.flowscale.engine.api.KeyedCoProcessFunction;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.OperatorKind;
import dev.flowscale.engine.join.IntervalJoin;
import dev.flowscale.engine.join.WindowJoin;
import dev.flowscale.engine.runtime.CoProcessAdapter;
import dev.flowscale.engine.window.WindowAssigner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Two keyed streams with the same key type, connected: a record of either reaches the instance that
 * owns its key. Finish with {@link #process}, {@link #intervalJoin} or {@link #windowJoin}.
 */
public final class KeyedConnectedStreams<A, B, K> {
    private final KeyedStream<A, K> first;
    private final KeyedStream<B, K> second;

    KeyedConnectedStreams(KeyedStream<A, K> first, KeyedStream<B, K> second) {
        this.first = first;
        this.second = second;
    }

    /** Processes both inputs with one keyed co-process function per instance. */
    public <O> DataStream<O> process(
            String id, Supplier<? extends KeyedCoProcessFunction<K, A, B, O>> factory) {
        if (factory == null) {
            throw new InvalidJobException(
                    "process '" + id + "': factory is null; pass e.g. MyFunction::new");
        }
        List<Edge> edges = new ArrayList<>(first.edges());
        second.edges().forEach(e -> edges.add(e.toInput(1)));
        Supplier<CoProcessAdapter<K, A, B, O>> adapted =
                () -> new CoProcessAdapter<>(factory.get());
        return new DataStream<>(
                first.job(), first.job().add(id, OperatorKind.KEYED_PROCESS, adapted, edges));
    }

    /**
     * Joins each first-input record at t with the second-input records of its key at times in
     * {@code [t + lower, t + upper]}.
     */
    public <O> DataStream<O> intervalJoin(
            String id,
            Duration lower,
            Duration upper,
            JoinFunction<A, B, O> join,
            Class<A> firstType,
            Class<B> secondType) {
        if (lower == null || upper == null || lower.compareTo(upper) > 0) {
            throw new InvalidJobException(
                    "intervalJoin '"
                            + id
                            + "': lower bound "
                            + lower
                            + " is after upper bound "
                            + upper
                            + "; use lower <= upper, e.g. -5 s and +5 s");
        }
        var spec =
                new IntervalJoin.Spec<>(
                        lower.toMillis(), upper.toMillis(), join, firstType, secondType);
        return process(id, () -> new IntervalJoin<K, A, B, O>(spec));
    }

    /** Joins the records of both inputs that share a key and a (tumbling or sliding) window. */
    public <O> DataStream<O> windowJoin(
            String id,
            WindowAssigner windows,
            JoinFunction<A, B, O> join,
            Class<A> firstType,
            Class<B> secondType) {
        var spec = new WindowJoin.Spec<>(windows, join, firstType, secondType);
        return process(id, () -> new WindowJoin<K, A, B, O>(spec));
    }
}
