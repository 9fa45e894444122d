package dev.flowscale.engine.job;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.KeySelector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.window.WindowAssigner;
import java.util.List;
import java.util.function.Supplier;

/** A stream partitioned by key: all records with the same key reach the same instance. */
public final class KeyedStream<T, K> {
    private final DataStream<T> input;
    private final KeySelector<? super T, K> keySelector;

    KeyedStream(DataStream<T> input, KeySelector<? super T, K> keySelector) {
        this.input = input;
        this.keySelector = keySelector;
    }

    /**
     * Processes the records with a keyed function; {@code factory} makes one function object per
     * instance.
     */
    public <O> DataStream<O> process(
            String id, Supplier<? extends KeyedProcessFunction<K, ? super T, O>> factory) {
        if (factory == null) {
            throw new InvalidJobException(
                    "process '" + id + "': factory is null; pass e.g. MyFunction::new");
        }
        return input.nextKeyed(id, factory, keySelector);
    }

    /** Connects this stream with another keyed by the same key type (joins, co-processing). */
    public <B> KeyedConnectedStreams<T, B, K> connect(KeyedStream<B, K> other) {
        if (other == null) {
            throw new InvalidJobException("connect: the other stream is null");
        }
        return new KeyedConnectedStreams<>(this, other);
    }

    /** This stream's hash edges into the next operator. */
    List<Edge> edges() {
        return input.keyedEdges(keySelector);
    }

    JobBuilder job() {
        return input.job;
    }

    /** Cuts each key's records into event-time windows (tumbling, sliding or session). */
    public WindowedStream<T, K> window(WindowAssigner assigner) {
        if (assigner == null) {
            throw new InvalidJobException(
                    "window: assigner is null; pass e.g. WindowAssigner.tumbling(Duration.ofMinutes(1))");
        }
        return new WindowedStream<>(this, assigner);
    }
}
