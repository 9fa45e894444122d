package dev.flowscale.engine.job;

import dev.flowscale.engine.api.FilterFunction;
import dev.flowscale.engine.api.FlatMapFunction;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.KeySelector;
import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.graph.Chaining;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.OperatorKind;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.graph.Partitioning;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A stream of records: the output of one operator, or the union of several. Methods that set {@link
 * #uid}, {@link #name}, {@link #parallelism} and {@link #cost} apply to the operator that produces
 * this stream.
 */
public class DataStream<T> {
    final JobBuilder job;
    private String operatorId;
    private final List<String> unionOf;
    private final Partitioning partitioning;

    /** The side output of the operator this stream reads; null for its main output. */
    private final String outputTag;

    DataStream(JobBuilder job, String operatorId) {
        this(job, operatorId, List.of(operatorId), null);
    }

    DataStream(JobBuilder job, String operatorId, List<String> unionOf, Partitioning partitioning) {
        this(job, operatorId, unionOf, partitioning, null);
    }

    private DataStream(
            JobBuilder job,
            String operatorId,
            List<String> unionOf,
            Partitioning partitioning,
            String outputTag) {
        this.job = job;
        this.operatorId = operatorId;
        this.unionOf = unionOf;
        this.partitioning = partitioning;
        this.outputTag = outputTag;
    }

    /**
     * The records this stream's operator emits to side output {@code tag} (late records of a
     * window, say), as a stream of their own.
     */
    public <X> DataStream<X> sideOutput(OutputTag<X> tag) {
        if (tag == null) {
            throw new InvalidJobException(
                    "sideOutput of '" + operatorId() + "': tag is null; pass the operator's tag");
        }
        return new DataStream<>(job, operatorId(), unionOf, null, tag.id());
    }

    public <O> DataStream<O> map(String id, MapFunction<? super T, ? extends O> fn) {
        return next(id, OperatorKind.MAP, fn);
    }

    public <O> DataStream<O> flatMap(String id, FlatMapFunction<? super T, O> fn) {
        return next(id, OperatorKind.FLAT_MAP, fn);
    }

    public DataStream<T> filter(String id, FilterFunction<? super T> fn) {
        return next(id, OperatorKind.FILTER, fn);
    }

    /**
     * A non-keyed operator with a life cycle and operator list state; one function object per
     * instance.
     */
    public <O> DataStream<O> process(
            String id, Supplier<? extends ProcessFunction<? super T, O>> factory) {
        if (factory == null) {
            throw new InvalidJobException(
                    "process '" + id + "': factory is null; pass e.g. MyFunction::new");
        }
        return next(id, OperatorKind.PROCESS, factory);
    }

    public <K> KeyedStream<T, K> keyBy(KeySelector<? super T, K> keySelector) {
        if (keySelector == null) {
            throw new InvalidJobException(
                    "keyBy after '"
                            + operatorId
                            + "': keySelector is null; pass a function "
                            + "that returns the record's key");
        }
        return new KeyedStream<>(this, keySelector);
    }

    /** Ends the stream in a sink; the returned stream only configures the sink operator. */
    public DataStream<Void> sink(String id, SinkFunction<? super T> sink) {
        return next(id, OperatorKind.SINK, sink);
    }

    /** This stream merged with others of the same type. */
    @SafeVarargs
    public final DataStream<T> union(DataStream<T>... others) {
        for (DataStream<T> stream : others) {
            if (stream.outputTag != null || outputTag != null) {
                throw new InvalidJobException(
                        "union of side output '"
                                + (outputTag != null ? outputTag : stream.outputTag)
                                + "': a side output cannot be united yet; map it first");
            }
        }
        List<String> all = new ArrayList<>(unionOf);
        for (DataStream<T> other : others) {
            all.addAll(other.unionOf);
        }
        return new DataStream<>(job, null, all, partitioning);
    }

    /** Sends records round robin to the next operator's instances. */
    public DataStream<T> rebalance() {
        return new DataStream<>(job, operatorId, unionOf, Partitioning.REBALANCE, outputTag);
    }

    /** Sends every record to every instance of the next operator. */
    public DataStream<T> broadcast() {
        return new DataStream<>(job, operatorId, unionOf, Partitioning.BROADCAST, outputTag);
    }

    /** Instance i to instance i; the next operator must have the same parallelism. */
    public DataStream<T> forward() {
        return new DataStream<>(job, operatorId, unionOf, Partitioning.FORWARD, outputTag);
    }

    /**
     * Sets a stable id for the operator, kept across rescales and savepoints (like Flink's uid).
     */
    public DataStream<T> uid(String uid) {
        OperatorNode node = operatorNode();
        job.replace(node.id(), node.withId(uid));
        operatorId = uid;
        return this;
    }

    public DataStream<T> name(String name) {
        job.replace(operatorNode().id(), operatorNode().withName(name));
        return this;
    }

    public DataStream<T> parallelism(int parallelism) {
        job.replace(operatorNode().id(), operatorNode().withParallelism(parallelism));
        return this;
    }

    /**
     * Starts a new chain at the operator: it runs on threads of its own, not on its input's, while
     * the operators after it may still chain to it (Flink's {@code startNewChain}).
     */
    public DataStream<T> startNewChain() {
        job.replace(operatorNode().id(), operatorNode().withChaining(Chaining.NEW_CHAIN));
        return this;
    }

    /**
     * Never chains the operator, neither to its input nor to its outputs: every record reaches it,
     * and leaves it, through a queue between threads (Flink's {@code disableChaining}).
     */
    public DataStream<T> disableChaining() {
        job.replace(operatorNode().id(), operatorNode().withChaining(Chaining.NONE));
        return this;
    }

    /** Adds a synthetic per-record cost (CPU work or a blocking wait) to the operator. */
    public DataStream<T> cost(SyntheticCost cost) {
        job.replace(operatorNode().id(), operatorNode().withCost(cost));
        return this;
    }

    /** The id of the operator producing this stream. */
    public String operatorId() {
        return operatorNode().id();
    }

    <O> DataStream<O> next(String id, OperatorKind kind, Object function) {
        return new DataStream<>(job, job.add(id, kind, function, inputEdges(null)));
    }

    <O> DataStream<O> nextKeyed(String id, Supplier<?> factory, KeySelector<?, ?> keySelector) {
        return new DataStream<>(
                job, job.add(id, OperatorKind.KEYED_PROCESS, factory, inputEdges(keySelector)));
    }

    /** The edges by which a keyed operator would read this stream. */
    List<Edge> keyedEdges(KeySelector<?, ?> keySelector) {
        return inputEdges(keySelector);
    }

    private List<Edge> inputEdges(KeySelector<?, ?> keySelector) {
        List<Edge> inputs = new ArrayList<>();
        for (String from : unionOf) {
            Edge edge =
                    keySelector != null
                            ? Edge.hash(from, null, keySelector)
                            : new Edge(from, null, partitioning, null);
            inputs.add(new Edge(from, null, edge.partitioning(), edge.keySelector(), outputTag));
        }
        return inputs;
    }

    private OperatorNode operatorNode() {
        if (operatorId == null) {
            throw new InvalidJobException(
                    "a union of streams "
                            + unionOf
                            + " is not an operator; set uid, name, "
                            + "parallelism and cost on the operators it unites");
        }
        return job.node(operatorId);
    }
}
