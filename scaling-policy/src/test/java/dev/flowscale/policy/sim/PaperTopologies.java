package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.Edge;
import java.util.List;
import java.util.Map;

/**
 * Topologies shaped like the DS2 paper's experiments, each with its load scaled by a factor, and
 * the optimal parallelism per load worked out by hand: ceil(input rate / capacity per instance).
 */
final class PaperTopologies {

    static final double SOURCE_CAPACITY = 20_000;

    private PaperTopologies() {}

    /** source (1000/s) -> flatMap (100/s, ×10) -> count (500/s). */
    static Scenario wordCount(RateProfile factor) {
        return Scenario.of(
                "wordcount",
                List.of(
                        SimOperator.source("source", SOURCE_CAPACITY, scaled(factor, 1000)),
                        SimOperator.operator("flatMap", 100, 10),
                        SimOperator.operator("count", 500, 0)),
                List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")),
                1);
    }

    /** source (2000/s) -> filter (400/s, ×0.5) -> map (150/s) -> enrich (90/s) -> sink (500/s). */
    static Scenario filterMapChain(RateProfile factor) {
        return Scenario.of(
                "filter-map chain",
                List.of(
                        SimOperator.source("source", SOURCE_CAPACITY, scaled(factor, 2000)),
                        SimOperator.operator("filter", 400, 0.5),
                        SimOperator.operator("map", 150, 1),
                        SimOperator.operator("enrich", 90, 1),
                        SimOperator.operator("sink", 500, 0)),
                List.of(
                        new Edge("source", "filter"),
                        new Edge("filter", "map"),
                        new Edge("map", "enrich"),
                        new Edge("enrich", "sink")),
                1);
    }

    /** bids (3000/s) and auctions (300/s) -> join (250/s, ×0.1) -> sink (100/s). */
    static Scenario twoInputJoin(RateProfile factor) {
        return Scenario.of(
                "two-input join",
                List.of(
                        SimOperator.source("bids", SOURCE_CAPACITY, scaled(factor, 3000)),
                        SimOperator.source("auctions", SOURCE_CAPACITY, scaled(factor, 300)),
                        SimOperator.operator("join", 250, 0.1),
                        SimOperator.operator("sink", 100, 0)),
                List.of(
                        new Edge("bids", "join"),
                        new Edge("auctions", "join"),
                        new Edge("join", "sink")),
                1);
    }

    /** source (2400/s) -> map (300/s) -> window (200/s, ×0.01) -> sink (50/s). */
    static Scenario windowedAggregation(RateProfile factor) {
        return Scenario.of(
                "windowed aggregation",
                List.of(
                        SimOperator.source("source", SOURCE_CAPACITY, scaled(factor, 2400)),
                        SimOperator.operator("map", 300, 1),
                        SimOperator.operator("window", 200, 0.01),
                        SimOperator.operator("sink", 50, 0)),
                List.of(
                        new Edge("source", "map"),
                        new Edge("map", "window"),
                        new Edge("window", "sink")),
                1);
    }

    /** Hand-computed optimum of each topology at load ×1, ×3 and ×0.5. */
    static Map<String, Integer> optimum(String topology, double factor) {
        return OPTIMA.get(topology).get(factor);
    }

    private static final Map<String, Map<Double, Map<String, Integer>>> OPTIMA =
            Map.of(
                    "wordcount",
                            Map.of(
                                    1.0, Map.of("source", 1, "flatMap", 10, "count", 20),
                                    3.0, Map.of("source", 1, "flatMap", 30, "count", 60),
                                    0.5, Map.of("source", 1, "flatMap", 5, "count", 10)),
                    "filter-map chain",
                            Map.of(
                                    1.0,
                                            Map.of(
                                                    "source", 1, "filter", 5, "map", 7, "enrich",
                                                    12, "sink", 2),
                                    3.0,
                                            Map.of(
                                                    "source", 1, "filter", 15, "map", 20, "enrich",
                                                    34, "sink", 6),
                                    0.5,
                                            Map.of(
                                                    "source", 1, "filter", 3, "map", 4, "enrich", 6,
                                                    "sink", 1)),
                    "two-input join",
                            Map.of(
                                    1.0, Map.of("bids", 1, "auctions", 1, "join", 14, "sink", 4),
                                    3.0, Map.of("bids", 1, "auctions", 1, "join", 40, "sink", 10),
                                    0.5, Map.of("bids", 1, "auctions", 1, "join", 7, "sink", 2)),
                    "windowed aggregation",
                            Map.of(
                                    1.0, Map.of("source", 1, "map", 8, "window", 12, "sink", 1),
                                    3.0, Map.of("source", 1, "map", 24, "window", 36, "sink", 2),
                                    0.5, Map.of("source", 1, "map", 4, "window", 6, "sink", 1)));

    /** A profile of load factors turned into records per second at the given base rate. */
    static RateProfile scaled(RateProfile factor, double baseRate) {
        return new RateProfile(
                factor.changes().stream()
                        .map(c -> new RateProfile.Change(c.fromSecond(), c.rate() * baseRate))
                        .toList());
    }
}
