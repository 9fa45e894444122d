package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.Edge;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The scenarios every scaling policy is measured on (issue 12): the DS2 word count, a seven-vertex
 * join-and-window job and seeded random dataflow graphs. Every scenario starts at parallelism 1 and
 * its sources follow {@link #LOAD}: the base rate, a step up to 1.5× at {@link #STEP_UP} and a step
 * down to 0.75× at {@link #STEP_DOWN}, so the start and both steps are load changes a policy must
 * settle after. Rates are chosen so that every optimum at the peak stays within 32 instances, the
 * CLI's default maximum parallelism.
 */
public final class ScenarioSuite {

    public static final long STEP_UP = 40 * 60;
    public static final long STEP_DOWN = 80 * 60;

    /** How long each scenario runs: 40 minutes after the step down. */
    public static final Duration RUN = Duration.ofMinutes(120);

    /** Load factor over time, applied to every source's base rate. */
    public static final RateProfile LOAD =
            RateProfile.constant(1).then(STEP_UP, 1.5).then(STEP_DOWN, 0.75);

    /** Seed of the random graphs in {@link #all()}. */
    public static final long SEED = 12;

    public static final int RANDOM_GRAPHS = 50;

    private static final double SOURCE_CAPACITY = 50_000;

    private ScenarioSuite() {}

    /** The word count, the join-and-window job and {@value #RANDOM_GRAPHS} random graphs. */
    public static List<Scenario> all() {
        return Stream.concat(
                        Stream.of(wordCount(), joinAndWindow()),
                        RandomDataflows.generate(SEED, RANDOM_GRAPHS, LOAD).stream())
                .toList();
    }

    /**
     * The DS2 paper's word count: source (1000 sentences/s) → flatMap (100/s per instance, 10 words
     * per sentence) → count (500 words/s per instance). Optimum at 1× is 10 / 20.
     */
    public static Scenario wordCount() {
        return Scenario.of(
                "wordcount",
                List.of(
                        SimOperator.source("source", SOURCE_CAPACITY, scaled(1000)),
                        SimOperator.operator("flatMap", 100, 10),
                        SimOperator.operator("count", 500, 0)),
                List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")),
                1);
    }

    /**
     * Seven vertices: orders (1200/s) → filter (keeps 60 %) ─┐ payments (300/s)
     * ─────────────────────────────────────┴→ join (emits 0.5 per input) → window (emits 0.05 per
     * input) → alerts and archive (fan-out).
     */
    public static Scenario joinAndWindow() {
        List<SimOperator> ops =
                List.of(
                        SimOperator.source("orders", SOURCE_CAPACITY, scaled(1200)),
                        SimOperator.source("payments", SOURCE_CAPACITY, scaled(300)),
                        SimOperator.operator("filter", 190, 0.6),
                        SimOperator.operator("join", 130, 0.5),
                        SimOperator.operator("window", 70, 0.05),
                        SimOperator.operator("alerts", 11, 0),
                        SimOperator.operator("archive", 17, 0));
        List<Edge> edges =
                List.of(
                        new Edge("orders", "filter"),
                        new Edge("filter", "join"),
                        new Edge("payments", "join"),
                        new Edge("join", "window"),
                        new Edge("window", "alerts"),
                        new Edge("window", "archive"));
        return Scenario.of("join-and-window", ops, edges, 1);
    }

    private static RateProfile scaled(double baseRate) {
        return LOAD.times(baseRate);
    }
}
