package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A simulated job: its operators, edges and the parallelism it starts at. */
public record Scenario(
        String name, List<SimOperator> operators, List<Edge> edges, Map<String, Integer> initial) {

    public Scenario {
        operators = List.copyOf(operators);
        edges = List.copyOf(edges);
        initial = Map.copyOf(initial);
        for (SimOperator op : operators) {
            if (!initial.containsKey(op.id())) {
                throw new PolicyException(
                        "scenario '" + name + "' has no initial parallelism for '" + op.id() + "'");
            }
        }
        topology(name, operators, edges, initial);
    }

    /** A scenario where every operator starts at the same parallelism. */
    public static Scenario of(
            String name, List<SimOperator> operators, List<Edge> edges, int initialParallelism) {
        Map<String, Integer> initial = new LinkedHashMap<>();
        operators.forEach(op -> initial.put(op.id(), Math.min(initialParallelism, op.keyGroups())));
        return new Scenario(name, operators, edges, initial);
    }

    public Scenario startingAt(int parallelism) {
        return of(name, operators, edges, parallelism);
    }

    public Scenario named(String newName) {
        return new Scenario(newName, operators, edges, initial);
    }

    public JobTopology topology() {
        return topology(name, operators, edges, initial);
    }

    private static JobTopology topology(
            String name,
            List<SimOperator> operators,
            List<Edge> edges,
            Map<String, Integer> initial) {
        List<OperatorSpec> specs = new ArrayList<>();
        operators.forEach(
                op -> specs.add(new OperatorSpec(op.id(), initial.get(op.id()), op.keyGroups())));
        return new JobTopology(name, specs, edges);
    }

    public SimOperator operator(String id) {
        return operators.stream()
                .filter(op -> op.id().equals(id))
                .findFirst()
                .orElseThrow(
                        () ->
                                new PolicyException(
                                        "scenario '" + name + "' has no operator '" + id + "'"));
    }

    /** Input rate each operator must sustain at the given second, from the sources' profiles. */
    public Map<String, Double> requiredRates(long second) {
        return rates(second, false);
    }

    /**
     * The rate each operator can carry at the given second, when every operator runs at its most
     * capable parallelism within its key groups: the sources' rates, and downstream of an operator
     * that cannot carry its input at any parallelism, what that operator passes on. Equal to {@link
     * #requiredRates} wherever the optimum lies within the bounds; below it, the computed bound no
     * policy can exceed.
     */
    public Map<String, Double> feasibleRates(long second) {
        return rates(second, true);
    }

    private Map<String, Double> rates(long second, boolean bounded) {
        JobTopology t = topology();
        Map<String, Double> in = new LinkedHashMap<>();
        for (String id : t.topologicalOrder()) {
            SimOperator op = operator(id);
            double rate =
                    op.isSource()
                            ? op.rate().at(second)
                            : t.inputsOf(id).stream()
                                    .mapToDouble(up -> in.get(up) * operator(up).selectivity())
                                    .sum();
            in.put(id, bounded && !op.isSource() ? Math.min(rate, mostCapable(op)) : rate);
        }
        return in;
    }

    /** The most an operator carries at any parallelism within its key groups. */
    static double mostCapable(SimOperator op) {
        double best = 0;
        for (int p = 1; p <= op.keyGroups(); p++) {
            best = Math.max(best, op.effectiveCapacity(p));
        }
        return best;
    }

    /** The smallest parallelism per operator that sustains the rates at the given second. */
    public Map<String, Integer> optimalParallelism(long second) {
        return optimalParallelism(second, 1);
    }

    /**
     * The smallest parallelism per operator that sustains {@code factor} times the rates at the
     * given second.
     */
    public Map<String, Integer> optimalParallelism(long second, double factor) {
        return optimalParallelism(requiredRates(second), factor);
    }

    /**
     * The smallest parallelism per operator that sustains {@code factor} times the given rates (its
     * key groups where none does).
     */
    public Map<String, Integer> optimalParallelism(Map<String, Double> rates, double factor) {
        Map<String, Integer> optimum = new LinkedHashMap<>();
        rates.forEach(
                (id, rate) -> optimum.put(id, minimalParallelism(operator(id), rate * factor)));
        return optimum;
    }

    private static int minimalParallelism(SimOperator op, double rate) {
        for (int p = 1; p <= op.keyGroups(); p++) {
            if (op.effectiveCapacity(p) >= rate * (1 - 1e-9)) {
                return p;
            }
        }
        return op.keyGroups();
    }
}
