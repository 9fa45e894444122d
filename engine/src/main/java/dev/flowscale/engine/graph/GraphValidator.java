package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.state.KeyGroups;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Checks a job graph before any thread starts; every message names the operator and field. */
final class GraphValidator {
    private GraphValidator() {}

    static Map<String, OperatorNode> indexById(String job, List<OperatorNode> nodes) {
        if (job == null || job.isBlank()) {
            throw new InvalidJobException("job name is empty; give the job a name");
        }
        Map<String, OperatorNode> byId = new LinkedHashMap<>();
        for (OperatorNode node : nodes) {
            if (node.id() == null || node.id().isBlank()) {
                throw invalid(job, node, "id", "is empty; set a stable id with uid(...)");
            }
            if (byId.putIfAbsent(node.id(), node) != null) {
                throw invalid(
                        job,
                        node,
                        "id",
                        "is used by two operators; give each operator a unique uid(...)");
            }
        }
        if (byId.isEmpty()) {
            throw new InvalidJobException(
                    "job '" + job + "' has no operators; add a source and a sink");
        }
        return byId;
    }

    /** Validates and returns a topological order of the operator ids. */
    static List<String> validate(JobGraph graph) {
        String job = graph.jobName();
        if (graph.keyGroups() < 1 || graph.keyGroups() > KeyGroups.MAX_KEY_GROUPS) {
            throw new InvalidJobException(
                    "job '"
                            + job
                            + "': keyGroups "
                            + graph.keyGroups()
                            + " is out of range; use 1.."
                            + KeyGroups.MAX_KEY_GROUPS
                            + " (default 128)");
        }
        graph.operators().forEach(node -> checkOperator(graph, node));
        graph.edges().forEach(edge -> checkEdge(graph, edge));
        return topologicalOrder(graph);
    }

    private static void checkOperator(JobGraph graph, OperatorNode node) {
        String job = graph.jobName();
        if (node.function() == null) {
            throw invalid(job, node, "function", "is missing; pass the operator's function");
        }
        if (node.parallelism() < 1) {
            throw invalid(
                    job, node, "parallelism", node.parallelism() + " is below 1; use at least 1");
        }
        if (node.parallelism() > graph.keyGroups()) {
            throw invalid(
                    job,
                    node,
                    "parallelism",
                    node.parallelism()
                            + " is more than the job's "
                            + graph.keyGroups()
                            + " key groups (an operator has at most one instance per key group); lower it"
                            + " or raise keyGroups");
        }
        boolean hasInputs = graph.edges().stream().anyMatch(e -> e.to().equals(node.id()));
        if (node.kind().isSource() && hasInputs) {
            throw invalid(
                    job, node, "inputs", "a source cannot have inputs; remove the edges into it");
        }
        if (!node.kind().isSource() && !hasInputs) {
            throw invalid(job, node, "inputs", "none; connect it to an upstream operator");
        }
    }

    private static void checkEdge(JobGraph graph, Edge edge) {
        String job = graph.jobName();
        OperatorNode from = graph.operator(edge.from());
        OperatorNode to = graph.operator(edge.to());
        if (from == null || to == null) {
            String missing = from == null ? edge.from() : edge.to();
            throw new InvalidJobException(
                    "job '"
                            + job
                            + "': edge "
                            + edge
                            + " refers to operator id '"
                            + missing
                            + "' that is not in the job; add the operator or remove the edge");
        }
        if (edge.partitioning() == null) {
            throw invalid(
                    job, to, "partitioning", "of the edge from '" + from.id() + "' is missing");
        }
        if (edge.partitioning() == Partitioning.HASH && edge.keySelector() == null) {
            throw invalid(
                    job,
                    to,
                    "keySelector",
                    "is missing on the hash edge from '"
                            + from.id()
                            + "'; call keyBy(selector) before a keyed operator");
        }
        if (to.kind() == OperatorKind.KEYED_PROCESS && edge.partitioning() != Partitioning.HASH) {
            throw invalid(
                    job,
                    to,
                    "keySelector",
                    "is missing: a keyed operator needs keyBy(selector) on its input '"
                            + from.id()
                            + "'");
        }
        if (edge.partitioning() == Partitioning.FORWARD && from.parallelism() != to.parallelism()) {
            throw invalid(
                    job,
                    to,
                    "partitioning",
                    "forward from '"
                            + from.id()
                            + "' needs equal parallelism ("
                            + from.parallelism()
                            + " vs "
                            + to.parallelism()
                            + "); use rebalance()");
        }
    }

    private static List<String> topologicalOrder(JobGraph graph) {
        Map<String, Integer> indegree = new HashMap<>();
        graph.operators().forEach(n -> indegree.put(n.id(), 0));
        graph.edges().forEach(e -> indegree.merge(e.to(), 1, Integer::sum));
        Deque<String> ready = new ArrayDeque<>();
        graph.operators().stream()
                .filter(n -> indegree.get(n.id()) == 0)
                .forEach(n -> ready.add(n.id()));
        List<String> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            String id = ready.poll();
            order.add(id);
            for (Edge e : graph.outputsOf(id)) {
                if (indegree.merge(e.to(), -1, Integer::sum) == 0) {
                    ready.add(e.to());
                }
            }
        }
        if (order.size() < graph.operators().size()) {
            List<String> inCycle =
                    graph.operators().stream()
                            .map(OperatorNode::id)
                            .filter(id -> !order.contains(id))
                            .toList();
            throw new InvalidJobException(
                    "job '"
                            + graph.jobName()
                            + "': the graph has a cycle through operators "
                            + inCycle
                            + "; a dataflow must be acyclic");
        }
        return List.copyOf(order);
    }

    private static InvalidJobException invalid(
            String job, OperatorNode node, String field, String problem) {
        return new InvalidJobException("job '" + job + "', " + node + ": " + field + " " + problem);
    }
}
