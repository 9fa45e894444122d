package dev.flowscale.engine.job;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorKind;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.graph.Partitioning;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.time.TimestampedSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Declares a streaming job: start from {@link #source}, chain operators on the returned {@link
 * DataStream}s, then {@link #build()} the validated graph or {@link #start()} it.
 */
public final class JobBuilder {
    private final String jobName;
    private int keyGroups = KeyGroups.DEFAULT_KEY_GROUPS;
    private int defaultParallelism = 1;
    private final Map<String, OperatorNode> nodes = new LinkedHashMap<>();
    private final List<Edge> edges = new ArrayList<>();

    private JobBuilder(String jobName) {
        this.jobName = jobName;
    }

    public static JobBuilder named(String jobName) {
        return new JobBuilder(jobName);
    }

    /** The number of key groups: the upper bound of every operator's parallelism. Default 128. */
    public JobBuilder keyGroups(int keyGroups) {
        this.keyGroups = keyGroups;
        return this;
    }

    /** The number of key groups declared so far. */
    public int keyGroups() {
        return keyGroups;
    }

    /** The parallelism of operators that do not set their own. Default 1. */
    public JobBuilder defaultParallelism(int parallelism) {
        this.defaultParallelism = parallelism;
        return this;
    }

    public <T> DataStream<T> source(String id, SourceFunction<T> source) {
        return new DataStream<>(this, add(id, OperatorKind.SOURCE, source, List.of()));
    }

    /**
     * A source with event time: each record gets the timestamp {@code strategy} reads, and the
     * source emits watermarks per split (merged to their minimum); the whole job then carries event
     * time, and keyed functions can use event-time timers and windows.
     */
    public <T> DataStream<T> source(
            String id, SourceFunction<T> source, WatermarkStrategy<T> strategy) {
        if (strategy == null) {
            throw new InvalidJobException(
                    "source '"
                            + id
                            + "': watermark strategy is null; pass e.g. "
                            + "WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofSeconds(5), r -> r.time())");
        }
        return source(id, source == null ? null : new TimestampedSource<>(source, strategy));
    }

    /** Sets the parallelism of the operator with this id; for jobs declared elsewhere. */
    public JobBuilder parallelism(String operatorId, int parallelism) {
        replace(operatorId, existing(operatorId).withParallelism(parallelism));
        return this;
    }

    /** Sets the synthetic per-record cost of the operator with this id. */
    public JobBuilder cost(String operatorId, SyntheticCost cost) {
        replace(operatorId, existing(operatorId).withCost(cost));
        return this;
    }

    /** Operator ids in declaration order. */
    public List<String> operatorIds() {
        return List.copyOf(nodes.keySet());
    }

    private OperatorNode existing(String operatorId) {
        OperatorNode node = nodes.get(operatorId);
        if (node == null) {
            throw new InvalidJobException(
                    "job '"
                            + jobName
                            + "': no operator with id '"
                            + operatorId
                            + "'; the operators are "
                            + nodes.keySet());
        }
        return node;
    }

    /** Validates the graph; throws {@link InvalidJobException} naming the operator and field. */
    public JobGraph build() {
        List<Edge> resolved = edges.stream().map(this::resolveDefaultPartitioning).toList();
        return new JobGraph(jobName, keyGroups, new ArrayList<>(nodes.values()), resolved);
    }

    /** Builds and starts the job with the given configuration. */
    public RunningJob start(JobConfig config) {
        return RunningJob.start(build(), config);
    }

    public RunningJob start() {
        return start(JobConfig.defaults());
    }

    String add(String id, OperatorKind kind, Object function, List<Edge> inputs) {
        String uniqueId = id;
        for (int i = 2; nodes.containsKey(uniqueId); i++) {
            uniqueId = id + "-" + i;
        }
        nodes.put(
                uniqueId, new OperatorNode(uniqueId, id, kind, function, defaultParallelism, null));
        for (Edge input : inputs) {
            edges.add(input.between(input.from(), uniqueId));
        }
        return uniqueId;
    }

    /** Like Flink: forward between operators of equal parallelism, rebalance otherwise. */
    private Edge resolveDefaultPartitioning(Edge edge) {
        if (edge.partitioning() != null) {
            return edge;
        }
        OperatorNode from = nodes.get(edge.from());
        OperatorNode to = nodes.get(edge.to());
        boolean same = from != null && to != null && from.parallelism() == to.parallelism();
        return edge.withPartitioning(same ? Partitioning.FORWARD : Partitioning.REBALANCE);
    }

    OperatorNode node(String id) {
        return nodes.get(id);
    }

    /** Replaces an operator, renaming its edges when the id changes (uid). */
    void replace(String oldId, OperatorNode updated) {
        Map<String, OperatorNode> copy = new LinkedHashMap<>();
        nodes.forEach(
                (k, v) ->
                        copy.put(
                                k.equals(oldId) ? updated.id() : k, k.equals(oldId) ? updated : v));
        if (!oldId.equals(updated.id()) && nodes.containsKey(updated.id())) {
            throw new InvalidJobException(
                    "job '"
                            + jobName
                            + "': uid '"
                            + updated.id()
                            + "' is already used by another operator; give each operator a unique uid");
        }
        nodes.clear();
        nodes.putAll(copy);
        edges.replaceAll(
                e ->
                        e.between(
                                e.from().equals(oldId) ? updated.id() : e.from(),
                                e.to().equals(oldId) ? updated.id() : e.to()));
    }
}
