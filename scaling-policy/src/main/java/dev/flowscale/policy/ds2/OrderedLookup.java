package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import java.util.List;

/**
 * Topological positions of operators by id, for one decision's table read by id. The policy's
 * passes mostly read every operator in topological order, so the position after the one found last,
 * then that one again, are tried before the topology's lookup by id: on a large graph a hash lookup
 * per read was the costliest part of a decision. Not thread-safe: one per table of one decision.
 */
final class OrderedLookup {

    private final JobTopology topology;
    private final List<String> order;
    private int last;
    private long lookups;

    OrderedLookup(JobTopology topology) {
        this.topology = topology;
        this.order = topology.topologicalOrder();
    }

    /** The position of {@code id} in the topological order, or -1 when the graph has none. */
    int of(String id) {
        int next = last + 1;
        if (next < order.size() && id.equals(order.get(next))) {
            last = next;
            return next;
        }
        if (id.equals(order.get(last))) {
            return last;
        }
        lookups++;
        int found = topology.positionOf(id);
        if (found >= 0) {
            last = found;
        }
        return found;
    }

    /** How many reads fell back to the topology's lookup by id: the work this saves is the rest. */
    long lookups() {
        return lookups;
    }
}
