package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.InvalidJobException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable, validated dataflow graph: operators, the edges between them and the job's max
 * parallelism (its number of key groups). Construction validates the whole graph and throws an
 * {@link dev.flowscale.engine.api.InvalidJobException} naming the operator and field at fault.
 */
public final class JobGraph {
    private final String jobName;
    private final int keyGroups;
    private final Map<String, OperatorNode> nodes;
    private final List<Edge> edges;
    private final List<String> topologicalOrder;

    public JobGraph(String jobName, int keyGroups, List<OperatorNode> nodes, List<Edge> edges) {
        this.jobName = jobName;
        this.keyGroups = keyGroups;
        this.nodes = GraphValidator.indexById(jobName, nodes);
        this.edges = List.copyOf(edges);
        this.topologicalOrder = GraphValidator.validate(this);
    }

    public String jobName() {
        return jobName;
    }

    public int keyGroups() {
        return keyGroups;
    }

    /** Operators in the order they were declared. */
    public List<OperatorNode> operators() {
        return List.copyOf(nodes.values());
    }

    public OperatorNode operator(String id) {
        return nodes.get(id);
    }

    public List<Edge> edges() {
        return edges;
    }

    /** Operator ids, every operator after all of its upstream operators. */
    public List<String> topologicalOrder() {
        return topologicalOrder;
    }

    public List<Edge> inputsOf(String id) {
        return edges.stream().filter(e -> e.to().equals(id)).toList();
    }

    public List<Edge> outputsOf(String id) {
        return edges.stream().filter(e -> e.from().equals(id)).toList();
    }

    public Map<String, Integer> parallelism() {
        Map<String, Integer> result = new LinkedHashMap<>();
        nodes.values().forEach(n -> result.put(n.id(), n.parallelism()));
        return Collections.unmodifiableMap(result);
    }

    /**
     * The same graph with new parallelism for the operators named in {@code changes}; forward edges
     * whose two sides no longer match become rebalance edges, and turn forward again once a later
     * change makes them match (so chains re-form, see {@link Edge#forParallelism}).
     */
    public JobGraph withParallelism(Map<String, Integer> changes) {
        List<OperatorNode> updated = new ArrayList<>();
        for (OperatorNode node : nodes.values()) {
            updated.add(node.withParallelism(changes.getOrDefault(node.id(), node.parallelism())));
        }
        Map<String, Integer> p = new LinkedHashMap<>();
        updated.forEach(n -> p.put(n.id(), n.parallelism()));
        List<Edge> newEdges =
                edges.stream().map(e -> e.forParallelism(p.get(e.from()), p.get(e.to()))).toList();
        return new JobGraph(jobName, keyGroups, updated, newEdges);
    }

    /**
     * The same graph under another name (the name labels metrics and snapshots; it is not checked
     * on restore).
     */
    public JobGraph withJobName(String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidJobException(
                    "job name is blank; give the job a name such as 'orders'");
        }
        return new JobGraph(name, keyGroups, operators(), edges);
    }

    /** The same graph with every operator unchained: each instance on its own thread. */
    public JobGraph unchained() {
        List<OperatorNode> updated = new ArrayList<>();
        nodes.values().forEach(n -> updated.add(n.withChaining(Chaining.NONE)));
        return new JobGraph(jobName, keyGroups, updated, edges);
    }

    @Override
    public String toString() {
        return "job '" + jobName + "' " + parallelism();
    }
}
