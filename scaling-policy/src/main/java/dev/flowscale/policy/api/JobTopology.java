package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable job graph: operators with their current and max parallelism, joined by edges.
 * Sources are the operators without inputs. The graph must be acyclic; operators are visited in a
 * deterministic topological order (ties broken by declaration order).
 */
public final class JobTopology {

    private final String jobName;
    private final Map<String, OperatorSpec> operators;
    private final List<Edge> edges;
    private final List<String> topologicalOrder;
    // Adjacency and derived lists are computed once: the policy asks for them per operator, and
    // scanning the edge list on every call made a decision quadratic in the graph's size.
    private final Map<String, List<String>> inputs;
    private final Map<String, List<String>> outputs;
    private final List<OperatorSpec> orderedOperators;
    private final List<String> sources;
    // The positions of each operator's inputs in edge order, operator after operator in
    // topological order: those of position i are inputs[inputsFrom[i] .. inputsFrom[i + 1]). DS2
    // sums upstream rates through them in every pass; two arrays stay in cache where an array per
    // operator did not.
    private final int[] inputsFrom;
    private final int[] inputAt;
    // Topological position per id: the one lookup by id that positional tables need.
    private final PositionIndex positions;

    public JobTopology(String jobName, List<OperatorSpec> operators, List<Edge> edges) {
        this.jobName = Checks.notBlank(jobName, "job name");
        this.operators =
                index(jobName, Checks.notNull(operators, "job '" + jobName + "' operators"));
        this.edges = List.copyOf(Checks.notNull(edges, "job '" + jobName + "' edges"));
        checkEdges();
        this.inputs = adjacency(true);
        this.outputs = adjacency(false);
        this.topologicalOrder = sort();
        this.orderedOperators = topologicalOrder.stream().map(this.operators::get).toList();
        this.sources = topologicalOrder.stream().filter(id -> inputs.get(id).isEmpty()).toList();
        this.positions = new PositionIndex(topologicalOrder);
        this.inputsFrom = new int[topologicalOrder.size() + 1];
        this.inputAt = new int[this.edges.size()];
        indexInputs();
    }

    private void indexInputs() {
        int k = 0;
        for (int i = 0; i < topologicalOrder.size(); i++) {
            inputsFrom[i] = k;
            for (String input : inputs.get(topologicalOrder.get(i))) {
                inputAt[k++] = positions.of(input);
            }
        }
        inputsFrom[topologicalOrder.size()] = k;
    }

    /**
     * Per operator, the other end of each edge arriving at it ({@code in}) or leaving it, in edge
     * order.
     */
    private Map<String, List<String>> adjacency(boolean in) {
        Map<String, List<String>> lists = new HashMap<>();
        operators.keySet().forEach(id -> lists.put(id, new ArrayList<>()));
        for (Edge e : edges) {
            lists.get(in ? e.to() : e.from()).add(in ? e.from() : e.to());
        }
        lists.replaceAll((id, list) -> List.copyOf(list));
        return lists;
    }

    private static Map<String, OperatorSpec> index(String job, List<OperatorSpec> list) {
        if (list.isEmpty()) {
            throw new PolicyException(
                    "job '" + job + "' has no operators; add at least one source");
        }
        Map<String, OperatorSpec> byId = new LinkedHashMap<>();
        for (OperatorSpec op : list) {
            if (byId.put(op.id(), op) != null) {
                throw new PolicyException(
                        "job '"
                                + job
                                + "' declares operator '"
                                + op.id()
                                + "' twice; give every operator a unique id");
            }
        }
        return Collections.unmodifiableMap(byId);
    }

    private void checkEdges() {
        for (Edge e : edges) {
            for (String end : List.of(e.from(), e.to())) {
                if (!operators.containsKey(end)) {
                    throw new PolicyException(
                            "job '"
                                    + jobName
                                    + "' edge "
                                    + e.from()
                                    + " -> "
                                    + e.to()
                                    + " names unknown operator '"
                                    + end
                                    + "'; declare it or fix the edge");
                }
            }
        }
    }

    private List<String> sort() {
        Map<String, Integer> inDegree = new LinkedHashMap<>();
        operators.keySet().forEach(id -> inDegree.put(id, inputsOf(id).size()));
        Deque<String> ready = new ArrayDeque<>();
        inDegree.forEach(
                (id, d) -> {
                    if (d == 0) ready.add(id);
                });
        List<String> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            String id = ready.poll();
            order.add(id);
            for (String next : outputsOf(id)) {
                if (inDegree.merge(next, -1, Integer::sum) == 0) {
                    ready.add(next);
                }
            }
        }
        if (order.size() != operators.size()) {
            throw new PolicyException(
                    "job '" + jobName + "' has a cycle; streaming graphs must be acyclic");
        }
        return List.copyOf(order);
    }

    public String jobName() {
        return jobName;
    }

    /** Operators in topological order. */
    public List<OperatorSpec> operators() {
        return orderedOperators;
    }

    public List<Edge> edges() {
        return edges;
    }

    public List<String> topologicalOrder() {
        return topologicalOrder;
    }

    public OperatorSpec operator(String id) {
        OperatorSpec op = operators.get(id);
        if (op == null) {
            throw new PolicyException("job '" + jobName + "' has no operator '" + id + "'");
        }
        return op;
    }

    /**
     * The position of operator {@code id} in {@link #topologicalOrder()}, or -1 when the graph has
     * no such operator: tables indexed by position are read by id through this one lookup.
     */
    public int positionOf(String id) {
        return positions.of(id);
    }

    public boolean contains(String id) {
        return operators.containsKey(id);
    }

    /** Ids of the operators feeding {@code id}, one entry per edge. */
    public List<String> inputsOf(String id) {
        return neighbours(inputs, id);
    }

    /** Ids of the operators that {@code id} feeds, one entry per edge. */
    public List<String> outputsOf(String id) {
        return neighbours(outputs, id);
    }

    /** Unknown ids have no neighbours, as when the edge list was scanned. */
    private static List<String> neighbours(Map<String, List<String>> adjacency, String id) {
        return adjacency.getOrDefault(id, List.of());
    }

    /** Whether the operator at {@code position} of {@link #topologicalOrder()} has no inputs. */
    public boolean isSourceAt(int position) {
        return inputsFrom[position] == inputsFrom[position + 1];
    }

    /**
     * The sum of {@code values} over the inputs of the operator at {@code position} of {@link
     * #topologicalOrder()}, one term per edge in edge order; {@code values} is indexed by
     * topological position. Summing in edge order keeps the result equal to a sum over {@link
     * #inputsOf(String)}.
     */
    public double sumOverInputs(int position, double[] values) {
        double sum = 0;
        for (int k = inputsFrom[position]; k < inputsFrom[position + 1]; k++) {
            sum += values[inputAt[k]];
        }
        return sum;
    }

    /**
     * Whether {@code flags}, indexed by topological position, is set at some input of the operator
     * at {@code position} of {@link #topologicalOrder()}.
     */
    public boolean anyInputFlagged(int position, boolean[] flags) {
        for (int k = inputsFrom[position]; k < inputsFrom[position + 1]; k++) {
            if (flags[inputAt[k]]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sets {@code flags}, indexed by topological position, at every input of the operator at {@code
     * position} of {@link #topologicalOrder()}.
     */
    public void flagInputs(int position, boolean[] flags) {
        for (int k = inputsFrom[position]; k < inputsFrom[position + 1]; k++) {
            flags[inputAt[k]] = true;
        }
    }

    public boolean isSource(String id) {
        return inputsOf(id).isEmpty();
    }

    public List<String> sources() {
        return sources;
    }

    /** Current parallelism of every operator, in topological order. */
    public Map<String, Integer> parallelism() {
        Map<String, Integer> result = new LinkedHashMap<>();
        topologicalOrder.forEach(id -> result.put(id, operators.get(id).parallelism()));
        return result;
    }

    /** A copy with the given parallelism for the listed operators; others unchanged. */
    public JobTopology withParallelism(Map<String, Integer> newParallelism) {
        List<OperatorSpec> updated = new ArrayList<>();
        for (OperatorSpec op : operators.values()) {
            updated.add(op.withParallelism(newParallelism.getOrDefault(op.id(), op.parallelism())));
        }
        return new JobTopology(jobName, updated, edges);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobTopology t
                && jobName.equals(t.jobName)
                && operators.equals(t.operators)
                && edges.equals(t.edges);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobName, operators, edges);
    }

    @Override
    public String toString() {
        return "JobTopology[" + jobName + ", " + parallelism() + ", " + edges + "]";
    }
}
