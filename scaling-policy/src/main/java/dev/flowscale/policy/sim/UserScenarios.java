package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Seeded random jobs as users start them (issue 28), on {@link RandomDataflows} graphs: each starts
 * from a random configuration (under-provisioned, one that already sustains its load, or
 * over-provisioned two to four times), its load steps once, up or down; a sixth of them have one
 * linear operator whose bound (its key groups) lies below its optimum at the peak; a quarter change
 * their load while the first rescale is still in flight; a third plan with a configured downtime
 * ten times above or below the real one. Sub-linear and hot-key operators come from the graphs.
 * Same seed, same jobs.
 */
public final class UserScenarios {

    /** How a job starts, relative to the smallest configuration that sustains its first load. */
    public enum Start {
        UNDER,
        SUSTAINING,
        OVER
    }

    /**
     * One job as a user starts it.
     *
     * @param priorFactor the configured expected downtime over the real one (1: the profile's
     *     default prior)
     * @param changeSecond when the load steps
     */
    public record Job(Scenario scenario, Start start, double priorFactor, long changeSecond) {

        /** The run: the load change and 30 minutes after it. */
        public Duration run() {
            return Duration.ofSeconds(changeSecond + AFTER_CHANGE);
        }
    }

    /** When the load steps, unless it steps while the first rescale is in flight. */
    static final long CHANGE = 30 * 60;

    static final long AFTER_CHANGE = 30 * 60;

    private static final double[] STEPS = {0.5, 0.7, 1.4, 1.8};
    private static final double[] PRIORS = {0.1, 10};

    private UserScenarios() {}

    /**
     * {@code count} jobs from {@code seed}; {@code inFlightSecond} is when a job whose load changes
     * during its first rescale changes it (the profile's decision times fix when that rescale
     * runs).
     */
    public static List<Job> generate(long seed, int count, long inFlightSecond) {
        if (count < 1) {
            throw new PolicyException("user job count is " + count + "; ask for at least one");
        }
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // neighbouring seeds give java.util.Random correlated first draws: scramble them
            Random random = new Random(new SplittableRandom(seed * 7_919 + i).nextLong());
            jobs.add(job(random, seed * 1_000 + i, i, inFlightSecond));
        }
        return jobs;
    }

    private static Job job(Random random, long graphSeed, int i, long inFlightSecond) {
        double step = STEPS[random.nextInt(STEPS.length)];
        boolean inFlight = random.nextInt(4) == 0;
        long change = inFlight ? inFlightSecond : CHANGE;
        RateProfile load = RateProfile.constant(1).then(change, step);
        Scenario graph = RandomDataflows.generate(graphSeed, 1, load).get(0);
        boolean bounded = random.nextInt(6) == 0;
        if (bounded) {
            graph = boundedBelowItsPeak(random, graph, change, step);
        }
        Start start = Start.values()[random.nextInt(Start.values().length)];
        double prior = random.nextInt(3) == 0 ? PRIORS[random.nextInt(PRIORS.length)] : 1;
        String name =
                String.format(
                        "user-%d-%s-x%.1f%s%s%s",
                        i,
                        start.name().toLowerCase(Locale.ROOT),
                        step,
                        inFlight ? "-in-flight" : "",
                        bounded ? "-bounded" : "",
                        prior == 1 ? "" : "-prior-x" + prior);
        Scenario started = startingFrom(random, graph, start).named(name);
        return new Job(started, start, prior, change);
    }

    /**
     * One linear operator gets fewer key groups than its optimum at the peak, so no configuration
     * carries the peak: its bound caps the flow.
     */
    private static Scenario boundedBelowItsPeak(
            Random random, Scenario graph, long change, double step) {
        long peak = step > 1 ? change : 0;
        Map<String, Integer> optimum = graph.optimalParallelism(peak);
        List<SimOperator> linear =
                graph.operators().stream()
                        .filter(op -> !op.isSource() && op.alpha() == 1 && op.skew() == 0)
                        .filter(op -> optimum.get(op.id()) >= 3)
                        .toList();
        if (linear.isEmpty()) {
            return graph;
        }
        SimOperator capped = linear.get(random.nextInt(linear.size()));
        int bound = Math.max(1, optimum.get(capped.id()) - 1 - random.nextInt(2));
        List<SimOperator> ops =
                graph.operators().stream()
                        .map(op -> op == capped ? op.withKeyGroups(bound) : op)
                        .toList();
        return Scenario.of(graph.name(), ops, graph.edges(), 1);
    }

    private static Scenario startingFrom(Random random, Scenario graph, Start start) {
        Map<String, Integer> optimum = graph.optimalParallelism(0);
        Map<String, Integer> initial = new LinkedHashMap<>();
        List<SimOperator> ops = graph.operators();
        String bottleneck = pick(random, ops, optimum);
        for (SimOperator op : ops) {
            int best = optimum.get(op.id());
            int p =
                    op.isSource()
                            ? 1
                            : switch (start) {
                                case UNDER ->
                                        op.id().equals(bottleneck) || random.nextBoolean()
                                                ? 1 + random.nextInt(Math.max(1, best - 1))
                                                : best;
                                case SUSTAINING -> best + random.nextInt(Math.max(1, best / 4 + 1));
                                case OVER -> (int) Math.ceil(best * (2 + 2 * random.nextDouble()));
                            };
            initial.put(op.id(), Math.max(1, Math.min(p, op.keyGroups())));
        }
        return new Scenario(graph.name(), ops, graph.edges(), initial);
    }

    /** An operator that needs two instances or more, to start below its need. */
    private static String pick(Random random, List<SimOperator> ops, Map<String, Integer> optimum) {
        List<String> several =
                ops.stream()
                        .filter(op -> !op.isSource() && optimum.get(op.id()) >= 2)
                        .map(SimOperator::id)
                        .toList();
        return several.isEmpty() ? "" : several.get(random.nextInt(several.size()));
    }
}
