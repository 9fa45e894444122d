package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.SyntheticCost;
import java.util.Objects;

/**
 * One operator of a job graph: a stable id (kept across rescales and savepoints), a display name,
 * its kind and function, its parallelism, an optional synthetic per-record cost and whether it may
 * be chained to its neighbours.
 */
public record OperatorNode(
        String id,
        String name,
        OperatorKind kind,
        Object function,
        int parallelism,
        SyntheticCost cost,
        Chaining chaining) {

    public OperatorNode {
        Objects.requireNonNull(kind, "kind");
        chaining = chaining == null ? Chaining.DEFAULT : chaining;
        cost = cost == null ? SyntheticCost.none() : cost;
        name = name == null || name.isBlank() ? id : name;
    }

    /** An operator that chains wherever its edges allow. */
    public OperatorNode(
            String id,
            String name,
            OperatorKind kind,
            Object function,
            int parallelism,
            SyntheticCost cost) {
        this(id, name, kind, function, parallelism, cost, Chaining.DEFAULT);
    }

    public OperatorNode withParallelism(int newParallelism) {
        return new OperatorNode(id, name, kind, function, newParallelism, cost, chaining);
    }

    public OperatorNode withCost(SyntheticCost newCost) {
        return new OperatorNode(id, name, kind, function, parallelism, newCost, chaining);
    }

    public OperatorNode withName(String newName) {
        return new OperatorNode(id, newName, kind, function, parallelism, cost, chaining);
    }

    public OperatorNode withChaining(Chaining newChaining) {
        return new OperatorNode(id, name, kind, function, parallelism, cost, newChaining);
    }

    public OperatorNode withId(String newId) {
        return new OperatorNode(
                newId, name.equals(id) ? newId : name, kind, function, parallelism, cost, chaining);
    }

    @Override
    public String toString() {
        return "operator '" + name + "' (id " + id + ")";
    }
}
