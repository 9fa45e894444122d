package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.settings.Setting;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * flowscale's policy against reactive exact DS2 ({@link PolicyConfig#exactDs2()}) on the word count
 * ({@link PredictiveComparison#job}) under a step, a sine and a daily trace, at several rescale
 * downtimes. flowscale runs with the cluster profile's defaults (mode auto, {@link
 * ProfileDefaults}); both policies decide at the cluster's policy interval and window. The goal: at
 * most half the rescales of exact DS2 with no more backlog (record-seconds). Where {@link
 * RescaleBound} shows that any policy sustaining the load and ending minimal needs more than half
 * of exact DS2's rescales, the row says the goal is out of reach and gives both counts: on the step
 * (up, then down again) any such policy needs two, and exact DS2 takes three (one sized on a window
 * only partly at the new rate, then the full one, then down). Run with {@code mvn -q -pl
 * scaling-policy exec:java -Dexec.mainClass=dev.flowscale.policy.sim.TraceComparison
 * -Dexec.args="step,sine,daily 2,30,60"} (traces, downtimes in seconds).
 */
public final class TraceComparison {

    /** Traces in the order they are run. */
    static final List<String> TRACES = List.of("step", "sine", "daily");

    static final List<Duration> DOWNTIMES =
            List.of(Duration.ofSeconds(2), Duration.ofSeconds(30), Duration.ofSeconds(60));

    /** The step: 500 sentences/s, 1,500 from minute 10, 500 again from minute 70, for 2 hours. */
    static final Duration STEP_RUN = Duration.ofHours(2);

    private TraceComparison() {}

    /** The figures of one policy on one trace at one downtime. */
    public record Run(
            double peakBacklog,
            double backlogRecordSeconds,
            double overProvisioned,
            double underProvisioned,
            int rescales) {}

    /**
     * flowscale and exact DS2 on one trace at one downtime.
     *
     * @param leastRescales the fewest rescales of any policy that sustains the trace and ends
     *     minimal ({@link RescaleBound})
     */
    public record Row(String trace, Duration downtime, Run flowscale, Run ds2, int leastRescales) {

        /** At most half of exact DS2's rescales, and no more backlog record-seconds. */
        public boolean meetsGoal() {
            return 2 * flowscale.rescales() <= ds2.rescales()
                    && flowscale.backlogRecordSeconds() <= ds2.backlogRecordSeconds();
        }

        /** Whether some policy could make at most half of exact DS2's rescales on this trace. */
        public boolean goalReachable() {
            return 2 * leastRescales <= ds2.rescales();
        }

        private String verdict() {
            if (meetsGoal()) {
                return "yes";
            }
            return goalReachable()
                    ? "no"
                    : String.format(
                            Locale.ROOT,
                            "out of reach: any policy needs %d rescales, half of DS2's is %.1f",
                            leastRescales,
                            ds2.rescales() / 2.0);
        }

        String format() {
            return String.format(
                    Locale.ROOT,
                    "| %s | %d s | %d | %d | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f"
                            + " | %,.0f | %,.0f | %s |",
                    trace,
                    downtime.toSeconds(),
                    flowscale.rescales(),
                    ds2.rescales(),
                    flowscale.peakBacklog(),
                    ds2.peakBacklog(),
                    flowscale.backlogRecordSeconds(),
                    ds2.backlogRecordSeconds(),
                    flowscale.overProvisioned(),
                    ds2.overProvisioned(),
                    flowscale.underProvisioned(),
                    ds2.underProvisioned(),
                    verdict());
        }
    }

    /** Arguments: traces (comma-separated, default all), downtimes in seconds (default 2,30,60). */
    public static void main(String[] args) {
        List<String> traces = args.length > 0 ? List.of(args[0].split(",")) : TRACES;
        List<Duration> downtimes =
                args.length > 1
                        ? List.of(args[1].split(",")).stream()
                                .map(s -> Duration.ofSeconds(Long.parseLong(s.trim())))
                                .toList()
                        : DOWNTIMES;
        PrintStream out = System.out;
        out.println(
                "| trace | downtime | rescales flowscale | rescales DS2 | peak backlog flowscale"
                        + " | peak backlog DS2 | backlog record-s flowscale | backlog record-s DS2"
                        + " | over instance-s flowscale | over instance-s DS2"
                        + " | under instance-s flowscale | under instance-s DS2 | goal met |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (String trace : traces) {
            for (Duration downtime : downtimes) {
                out.println(row(trace.trim(), downtime).format());
            }
        }
    }

    /** Both policies on {@code trace} at {@code downtime}, over the trace's whole length. */
    public static Row row(String trace, Duration downtime) {
        return row(trace, downtime, length(trace));
    }

    /** Both policies on the first {@code length} of {@code trace} at {@code downtime}. */
    public static Row row(String trace, Duration downtime, Duration length) {
        Scenario scenario = job(trace);
        ProfileDefaults cluster = new ProfileDefaults(Setting.Profile.CLUSTER, downtime, 1);
        return new Row(
                trace,
                downtime,
                run(scenario, cluster.policy(), cluster.settings(), length),
                run(scenario, PolicyConfig.exactDs2(), cluster.settings(), length),
                RescaleBound.leastRescales(scenario, length));
    }

    /** The word count under {@code trace}: the step here, the sine and daily traces of issue 12. */
    static Scenario job(String trace) {
        if (!trace.equals("step")) {
            return PredictiveComparison.job(trace);
        }
        return PredictiveComparison.wordCount(
                "step", RateProfile.constant(500).then(600, 1_500).then(4_200, 500));
    }

    static Duration length(String trace) {
        return trace.equals("step") ? STEP_RUN : PredictiveComparison.RUN;
    }

    static Run run(
            Scenario scenario, PolicyConfig config, SimulationSettings settings, Duration length) {
        Trajectory t = Simulation.ds2(scenario, config, settings).run(length);
        double step = settings.step().toNanos() / 1e9;
        return new Run(
                t.peakBacklog(),
                t.backlogRecordSeconds(step),
                t.overProvisionedInstanceSeconds(scenario::optimalParallelism, step),
                t.underProvisionedInstanceSeconds(scenario::optimalParallelism, step),
                t.scaleDecisions().size());
    }
}
