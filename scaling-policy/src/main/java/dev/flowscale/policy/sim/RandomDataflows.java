package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.OperatorSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded random dataflow graphs: one or two sources and three to seven operators, each reading from
 * one or two earlier vertices (fan-in) and some feeding two later ones (fan-out); selectivities
 * log-uniform in [0.1, 10]; a third of the operators scale sublinearly (α = 0.8), a fifth are keyed
 * with a hot key (skew 0.1–0.25). Each operator's per-instance capacity is chosen so that its
 * optimum at the peak load lies between 2 and 24 instances, which makes capacities span far more
 * than 100× across the graphs. Same seed, same graphs.
 */
public final class RandomDataflows {

    private static final double PEAK_FACTOR = 1.5;
    private static final double SOURCE_HEADROOM = 20;

    private RandomDataflows() {}

    /**
     * {@code count} graphs from {@code seed}, every source following the load factors of {@code
     * load}.
     */
    public static List<Scenario> generate(long seed, int count, RateProfile load) {
        if (count < 1) {
            throw new PolicyException("random graph count is " + count + "; ask for at least one");
        }
        List<Scenario> graphs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            graphs.add(graph(new Random(seed * 1_000 + i), "random-" + i, load));
        }
        return graphs;
    }

    private static Scenario graph(Random random, String name, RateProfile load) {
        int sources = 1 + random.nextInt(2);
        int operators = 3 + random.nextInt(5);
        List<String> ids = new ArrayList<>();
        Map<String, Double> baseRates = new LinkedHashMap<>();
        for (int s = 0; s < sources; s++) {
            ids.add("src" + s);
            baseRates.put("src" + s, logUniform(random, 100, 5000));
        }
        List<Edge> edges = new ArrayList<>();
        for (int o = 0; o < operators; o++) {
            String id = "op" + o;
            edges.addAll(inputsOf(random, id, ids));
            ids.add(id);
        }
        connectDeadEnds(random, ids, edges);
        return build(random, name, ids, edges, baseRates, load);
    }

    /** One or two distinct upstream vertices among those already placed. */
    private static List<Edge> inputsOf(Random random, String id, List<String> placed) {
        String first = placed.get(random.nextInt(placed.size()));
        List<Edge> in = new ArrayList<>(List.of(new Edge(first, id)));
        String second = placed.get(random.nextInt(placed.size()));
        if (!second.equals(first) && random.nextDouble() < 0.4) {
            in.add(new Edge(second, id));
        }
        return in;
    }

    /** Every vertex but the last gets at least one output, so no source or operator dangles. */
    private static void connectDeadEnds(Random random, List<String> ids, List<Edge> edges) {
        for (int i = 0; i < ids.size() - 1; i++) {
            String id = ids.get(i);
            if (edges.stream().noneMatch(e -> e.from().equals(id))) {
                int later = i + 1 + random.nextInt(ids.size() - i - 1);
                String to = ids.get(Math.max(later, firstOperator(ids)));
                edges.add(new Edge(id, to));
            }
        }
    }

    private static int firstOperator(List<String> ids) {
        return (int) ids.stream().filter(id -> id.startsWith("src")).count();
    }

    private static Scenario build(
            Random random,
            String name,
            List<String> ids,
            List<Edge> edges,
            Map<String, Double> baseRates,
            RateProfile load) {
        List<SimOperator> draft = new ArrayList<>();
        for (String id : ids) {
            draft.add(
                    baseRates.containsKey(id)
                            ? SimOperator.source(
                                    id,
                                    baseRates.get(id) * PEAK_FACTOR * SOURCE_HEADROOM,
                                    load.times(baseRates.get(id)))
                            : shaped(
                                    random,
                                    SimOperator.operator(id, 1, logUniform(random, 0.1, 10))));
        }
        Scenario unit = Scenario.of(name, draft, edges, 1);
        Map<String, Double> peak = unit.requiredRates(peakSecond(load));
        List<SimOperator> sized =
                draft.stream()
                        .map(
                                op ->
                                        op.isSource()
                                                ? op
                                                : sized(
                                                        op,
                                                        peak.get(op.id()),
                                                        2 + random.nextInt(23)))
                        .toList();
        return Scenario.of(name, sized, edges, 1);
    }

    private static SimOperator shaped(Random random, SimOperator op) {
        double kind = random.nextDouble();
        if (kind < 0.33) {
            return op.withAlpha(0.8);
        }
        return kind < 0.53 ? op.withSkew(0.1 + 0.15 * random.nextDouble()) : op;
    }

    /**
     * The operator with the per-instance capacity at which {@code target} instances carry the peak
     * rate with 3 % to spare (so no optimum sits exactly on a whole number).
     */
    private static SimOperator sized(SimOperator op, double peakRate, int target) {
        double unitCapacity = op.effectiveCapacity(target) / op.capacity();
        double capacity = Math.max(peakRate, 1e-3) * 1.03 / unitCapacity;
        return new SimOperator(
                op.id(),
                capacity,
                op.selectivity(),
                op.alpha(),
                op.overhead(),
                op.skew(),
                OperatorSpec.DEFAULT_KEY_GROUPS,
                null);
    }

    private static long peakSecond(RateProfile load) {
        return load.changes().stream()
                .max((a, b) -> Double.compare(a.rate(), b.rate()))
                .orElseThrow()
                .fromSecond();
    }

    private static double logUniform(Random random, double low, double high) {
        return Math.exp(Math.log(low) + random.nextDouble() * (Math.log(high) - Math.log(low)));
    }
}
