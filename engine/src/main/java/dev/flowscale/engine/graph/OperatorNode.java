package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.SyntheticCost;
import java.util.Objects;

/**
 * One operator of a job graph: a stable id (kept across rescales and savepoints), a display name,
 * its kind and function, its parallelism and an optional synthetic per-record cost.
 */
public record OperatorNode(
        String id,
        String name,
        OperatorKind kind,
        Object function,
        int parallelism,
        SyntheticCost cost) {

    public OperatorNode {
        Objects.requireNonNull(kind, "kind");
        cost = cost == null ? SyntheticCost.none() : cost;
        name = name == null || name.isBlank() ? id : name;
    }

    public OperatorNode withParallelism(int newParallelism) {
        return new OperatorNode(id, name, kind, function, newParallelism, cost);
    }

    public OperatorNode withCost(SyntheticCost newCost) {
        return new OperatorNode(id, name, kind, function, parallelism, newCost);
    }

    public OperatorNode withName(String newName) {
        return new OperatorNode(id, newName, kind, function, parallelism, cost);
    }

    public OperatorNode withId(String newId) {
        return new OperatorNode(
                newId, name.equals(id) ? newId : name, kind, function, parallelism, cost);
    }

    @Override
    public String toString() {
        return "operator '" + name + "' (id " + id + ")";
    }
}
