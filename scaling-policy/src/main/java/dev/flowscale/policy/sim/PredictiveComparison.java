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
 * instance-time above and below the optimum at each second. Run with
 * {@code mvn -q -pl scaling-policy exec:java -Dexec.mainClass=dev.flowscale.policy.sim.PredictiveComparison}.
 */
public final class PredictiveComparison {

    public static final Duration DOWNTIME = Duration.ofSeconds(30);
    static final Duration SINE_PERIOD = Duration.ofMinutes(30);
    static final Duration DAY = Duration.ofHours(1);
    static final Duration RUN = Duration.ofHours(4);

    /** The figures of one run. */
    public record Row(String load, boolean predictive, double peakBacklog, double backlogRecordSeconds,
            double overProvisioned, double underProvisioned, int rescales) {

        String format() {
            return String.format("| %-6s | %-10s | %,11.0f | %,15.0f | %,12.0f | %,12.0f | %8d |", load,
                    predictive ? "predictive" : "reactive", peakBacklog, backlogRecordSeconds, overProvisioned,
                    underProvisioned, rescales);
        }
    }

    private PredictiveComparison() {
    }

    public static void main(String[] args) {
        print(System.out, rows());
    }

    /** Both loads, reactive then predictive. */
    public static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String load : List.of("sine", "daily")) {
            Scenario scenario = job(load);
            rows.add(run(load, scenario, false));
            rows.add(run(load, scenario, true));
        }
        return rows;
    }

    static void print(PrintStream out, List<Row> rows) {
        out.printf("word count, %d s rescale downtime, %d h simulated, sine period %d min, day compressed to %d min%n",
                DOWNTIME.toSeconds(), RUN.toHours(), SINE_PERIOD.toMinutes(), DAY.toMinutes());
        out.println("| load   | mode       | peak backlog (records) | backlog (record-s) | over-provisioned"
                + " (instance-s) | under-provisioned (instance-s) | rescales |");
        out.println("|---|---|---:|---:|---:|---:|---:|");
        rows.forEach(r -> out.println(r.format()));
    }

    /**
     * The word count (source → flatMap at 100 sentences/s per instance, 10 words each → count at
     * 500 words/s), its source offering 300 to 1,700 sentences/s on a sine, or 300 to 1,500 over
     * a working day.
     */
    static Scenario job(String load) {
        RateProfile rate = load.equals("sine") ? RateProfile.sine(1000, 700, SINE_PERIOD, RUN)
                : RateProfile.daily(1500, DAY, RUN);
        Scenario s = Scenario.of(load, List.of(SimOperator.source("source", 1_000_000, rate),
                SimOperator.operator("flatMap", 100, 10), SimOperator.operator("count", 500, 0)),
                List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")), 1);
        return new Scenario(s.name(), s.operators(), s.edges(), s.optimalParallelism(0));
    }

    static Row run(String load, Scenario scenario, boolean predictive) {
        PolicyConfig config = TableDefaults.policy().toBuilder().predictive(predictive).build();
        SimulationSettings settings = TableDefaults.settings(DOWNTIME);
        Trajectory t = Simulation.ds2(scenario, config, settings).run(RUN);
        double step = settings.step().toNanos() / 1e9;
        return new Row(load, predictive, t.peakBacklog(), t.backlogRecordSeconds(step),
                t.overProvisionedInstanceSeconds(scenario::optimalParallelism, step),
                t.underProvisionedInstanceSeconds(scenario::optimalParallelism, step), t.scaleDecisions().size());
    }
}
