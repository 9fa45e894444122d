package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.PolicyConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 12's predictive mode against the reactive one: the word count with its source rate on a
 * sine and on a working day's pattern (a compressed day), with the table's defaults at a 30 s
 * rescale downtime, predictive off and on. Prints per run the peak and total backlog and the
 * instance-time above and below the optimum at each second. Run with {@code mvn -q -pl
 * scaling-policy exec:java -Dexec.mainClass=dev.flowscale.policy.sim.PredictiveComparison}.
 */
public final class PredictiveComparison {

    public static final Duration DOWNTIME = Duration.ofSeconds(30);
    static final Duration SINE_PERIOD = Duration.ofMinutes(30);
    static final Duration DAY = Duration.ofHours(1);
    static final Duration RUN = Duration.ofHours(4);

    /** The real daily pattern runs five days: three to learn the period from, two to use it. */
    static final Duration DAYS_RUN = Duration.ofDays(5);

    /** Loads in the order they are run: the sine, the compressed day, the real 24-hour day. */
    static final List<String> LOADS = List.of("sine", "daily", "24h");

    /** The figures of one run. */
    public record Row(
            String load,
            boolean predictive,
            double peakBacklog,
            double backlogRecordSeconds,
            double overProvisioned,
            double underProvisioned,
            int rescales) {

        String format() {
            return String.format(
                    "| %-6s | %-10s | %,11.0f | %,15.0f | %,12.0f | %,12.0f | %8d |",
                    load,
                    predictive ? "predictive" : "reactive",
                    peakBacklog,
                    backlogRecordSeconds,
                    overProvisioned,
                    underProvisioned,
                    rescales);
        }
    }

    private PredictiveComparison() {}

    /** Runs the loads named in the arguments (default: all of {@link #LOADS}). */
    public static void main(String[] args) {
        print(System.out, rows(args.length == 0 ? LOADS : List.of(args)));
    }

    /** Each load, reactive then predictive. */
    public static List<Row> rows(List<String> loads) {
        List<Row> rows = new ArrayList<>();
        for (String load : loads) {
            Scenario scenario = job(load);
            rows.add(run(load, scenario, false));
            rows.add(run(load, scenario, true));
        }
        return rows;
    }

    static void print(PrintStream out, List<Row> rows) {
        out.printf(
                "word count, %d s rescale downtime; sine (period %d min) and day compressed to %d min: %d h"
                        + " simulated; 24h: a real day's pattern, %d days simulated%n",
                DOWNTIME.toSeconds(),
                SINE_PERIOD.toMinutes(),
                DAY.toMinutes(),
                RUN.toHours(),
                DAYS_RUN.toDays());
        out.println(
                "| load   | mode       | peak backlog (records) | backlog (record-s) | over-provisioned"
                        + " (instance-s) | under-provisioned (instance-s) | rescales |");
        out.println("|---|---|---:|---:|---:|---:|---:|");
        rows.forEach(r -> out.println(r.format()));
    }

    /**
     * The word count (source → flatMap at 100 sentences/s per instance, 10 words each → count at
     * 500 words/s), its source offering 300 to 1,700 sentences/s on a sine, or 300 to 1,500 over a
     * working day (compressed into an hour, or a real day of 24 hours).
     */
    static Scenario job(String load) {
        RateProfile rate =
                switch (load) {
                    case "sine" -> RateProfile.sine(1000, 700, SINE_PERIOD, RUN);
                    case "daily" -> RateProfile.daily(1500, DAY, RUN);
                    case "24h" -> RateProfile.daily(1500, Duration.ofDays(1), DAYS_RUN);
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown load '" + load + "'; use one of " + LOADS);
                };
        return wordCount(load, rate);
    }

    /**
     * The word count named {@code name}, its source offering {@code rate}, started at its optimum.
     */
    static Scenario wordCount(String name, RateProfile rate) {
        Scenario s =
                Scenario.of(
                        name,
                        List.of(
                                SimOperator.source("source", 1_000_000, rate),
                                SimOperator.operator("flatMap", 100, 10),
                                SimOperator.operator("count", 500, 0)),
                        List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")),
                        1);
        return new Scenario(s.name(), s.operators(), s.edges(), s.optimalParallelism(0));
    }

    static Row run(String load, Scenario scenario, boolean predictive) {
        PolicyConfig config = TableDefaults.policy().toBuilder().predictive(predictive).build();
        SimulationSettings settings = TableDefaults.settings(DOWNTIME);
        Trajectory t =
                Simulation.ds2(scenario, config, settings).run(load.equals("24h") ? DAYS_RUN : RUN);
        double step = settings.step().toNanos() / 1e9;
        return new Row(
                load,
                predictive,
                t.peakBacklog(),
                t.backlogRecordSeconds(step),
                t.overProvisionedInstanceSeconds(scenario::optimalParallelism, step),
                t.underProvisionedInstanceSeconds(scenario::optimalParallelism, step),
                t.scaleDecisions().size());
    }
}
