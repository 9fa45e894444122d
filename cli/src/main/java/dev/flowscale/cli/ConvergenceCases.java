package dev.flowscale.cli;

import dev.flowscale.cli.ConvergenceCase.Load;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The four Nexmark queries of the DS2 paper's convergence table (Q3, Q5, Q8, Q11) with costs that
 * put several operators above one instance at {@value #RATE} events per second, and the initial
 * configurations each is started from. Windows are the built-in jobs' (Q5: 10 s every 2 s; Q8: 10 s
 * tumbling; Q11: 10 s gap). The costs are chosen so that every costed operator's load lies near the
 * middle between two whole instances (2.4 to 3.5 instance-loads, not 2.95): an instance that
 * measures a few per cent under its nominal rate on a loaded machine does not change the optimum.
 */
final class ConvergenceCases {
    /** Events per second the experiment runs at; the costs are chosen for it. */
    static final double RATE = 1_000;

    private static final double PERSON = (double) NexmarkGenerator.PERSONS / NexmarkGenerator.EPOCH;
    private static final double AUCTION =
            (double) NexmarkGenerator.AUCTIONS / NexmarkGenerator.EPOCH;
    private static final double BID = (double) NexmarkGenerator.BIDS / NexmarkGenerator.EPOCH;

    /**
     * Q3's filters: 3 of the generator's 6 states, 1 of its 5 categories, each chosen uniformly.
     */
    static final double Q3_STATE_SHARE = 3.0 / 6;

    static final double Q3_CATEGORY_SHARE = 1.0 / 5;

    private ConvergenceCases() {}

    /** The initial configurations, in the order the table shows them. */
    enum Start {
        /** Every operator at one instance. */
        ALL_1,
        /** Each costed operator at half its optimum, rounded up (below it); the others at one. */
        UNDER,
        /** Every operator at twice its optimum. */
        OVER,
        /** The source at two; costed operators alternately at twice their optimum and at one. */
        MIXED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        Map<String, Integer> of(ConvergenceCase c, double rate) {
            Map<String, Integer> optimum = c.optimum(rate);
            Map<String, Integer> start = new LinkedHashMap<>();
            int costed = 0;
            for (String op : c.operators()) {
                int best = optimum.get(op);
                boolean cost = c.loads().containsKey(op);
                start.put(
                        op,
                        switch (this) {
                            case ALL_1 -> 1;
                            case UNDER -> cost ? (best + 1) / 2 : 1;
                            case OVER -> 2 * best;
                            case MIXED ->
                                    cost
                                            ? (costed++ % 2 == 0 ? 2 * best : 1)
                                            : op.equals(NexmarkQueries.SOURCE) ? 2 : 1;
                        });
            }
            return start;
        }
    }

    /** Q3, Q5, Q8 and Q11, in that order. */
    static List<ConvergenceCase> all() {
        return List.of(q3(), q5(), q8(), q11());
    }

    /** The case named {@code query} (case-insensitive: "q5", "Q5"). */
    static ConvergenceCase named(String query) {
        return all().stream()
                .filter(c -> c.query().equalsIgnoreCase(query))
                .findFirst()
                .orElseThrow(
                        () ->
                                new CliException(
                                        "option --queries names '"
                                                + query
                                                + "', not one of q3, q5, q8, q11"));
    }

    static ConvergenceCase q3() {
        Map<String, Load> loads = new LinkedHashMap<>();
        loads.put("persons", load(1, "every event", 2_500));
        loads.put("auctions", load(1, "every event", 1_500));
        loads.put("category", load(AUCTION, "3 auctions per 50 events", 40_000));
        loads.put(
                "join",
                load(
                        PERSON * Q3_STATE_SHARE + AUCTION * Q3_CATEGORY_SHARE,
                        "persons of 3 in 6 states + auctions of 1 in 5 categories (1/100 + 3/250)",
                        70_000));
        return of("Q3", e -> NexmarkQueries.q3("convergence-q3", e, Sinks.counting()), loads);
    }

    static ConvergenceCase q5() {
        Map<String, Load> loads = new LinkedHashMap<>();
        loads.put("bids", load(1, "every event", 2_500));
        loads.put("counts", load(BID, "46 bids per 50 events", 4_900));
        return of(
                "Q5",
                e ->
                        NexmarkQueries.q5(
                                "convergence-q5",
                                e,
                                Sinks.counting(),
                                Duration.ofSeconds(10),
                                Duration.ofSeconds(2)),
                loads);
    }

    static ConvergenceCase q8() {
        Map<String, Load> loads = new LinkedHashMap<>();
        loads.put("persons", load(1, "every event", 1_500));
        loads.put("auctions", load(1, "every event", 2_500));
        loads.put("join", load(PERSON + AUCTION, "1 person + 3 auctions per 50 events", 30_000));
        return of(
                "Q8",
                e ->
                        NexmarkQueries.q8(
                                "convergence-q8", e, Sinks.counting(), Duration.ofSeconds(10)),
                loads);
    }

    static ConvergenceCase q11() {
        Map<String, Load> loads = new LinkedHashMap<>();
        loads.put("bids", load(1, "every event", 3_500));
        loads.put("sessions", load(BID, "46 bids per 50 events", 2_700));
        return of(
                "Q11",
                e ->
                        NexmarkQueries.q11(
                                "convergence-q11", e, Sinks.counting(), Duration.ofSeconds(10)),
                loads);
    }

    /**
     * An endless replayable event stream at {@code rate}, event time advancing at the same rate (as
     * the built-in jobs), so a 10 s window lasts about 10 s on the clock.
     */
    static GeneratorSource<Event> events(double rate) {
        NexmarkGenerator generator =
                new NexmarkGenerator(42, NexmarkGenerator.DEFAULT_START_MILLIS, rate);
        return new GeneratorSource<>(
                RateProfile.constant(rate), generator::event, Long.MAX_VALUE, true);
    }

    private static Load load(double share, String why, long costMicros) {
        return new Load(share, why, Duration.ofNanos(costMicros * 1_000));
    }

    private static ConvergenceCase of(
            String query,
            Function<SourceFunction<Event>, JobBuilder> job,
            Map<String, Load> loads) {
        List<String> operators = job.apply(events(RATE)).operatorIds();
        return new ConvergenceCase(query, operators, loads, job);
    }
}
