package dev.flowscale.engine.runtime;

import dev.flowscale.engine.graph.Chaining;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.graph.Partitioning;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which operators share a thread. An operator is chained to its input when that input is its only
 * one, a forward edge of the upstream operator's main output, both sides have the same parallelism
 * and neither side opted out ({@link Chaining}); a source heads a chain like any other operator, so
 * a split of its events (persons and auctions out of one Nexmark stream) runs on its thread. Keyed
 * exchanges, rebalances, broadcasts, unions, side outputs and differing parallelism end a chain.
 * The plan is made from the graph's current parallelism at every start and restore, so a rescale
 * splits and re-forms chains.
 */
public final class ChainPlan {
    private ChainPlan() {}

    /** The edge that chains {@code node} to its upstream operator; null when it heads a chain. */
    static Edge chainedInput(JobGraph graph, OperatorNode node) {
        if (node.kind().isSource() || node.chaining() != Chaining.DEFAULT) {
            return null;
        }
        List<Edge> inputs = graph.inputsOf(node.id());
        if (inputs.size() != 1) {
            return null;
        }
        Edge edge = inputs.get(0);
        OperatorNode from = graph.operator(edge.from());
        boolean chains =
                edge.partitioning() == Partitioning.FORWARD
                        && edge.outputTag() == null
                        && from.parallelism() == node.parallelism()
                        && from.chaining() != Chaining.NONE;
        return chains ? edge : null;
    }

    /** Each operator's chain head, by operator id in topological order (a head maps to itself). */
    public static Map<String, String> heads(JobGraph graph) {
        Map<String, String> heads = new LinkedHashMap<>();
        for (String id : graph.topologicalOrder()) {
            Edge input = chainedInput(graph, graph.operator(id));
            heads.put(id, input == null ? id : heads.get(input.from()));
        }
        return heads;
    }
}
