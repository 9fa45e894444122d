package dev.flowscale.comparison;

import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.ScenarioSuite;
import dev.flowscale.policy.sim.SettlingReport;
import dev.flowscale.policy.sim.Simulation;
import dev.flowscale.policy.sim.TableDefaults;
import dev.flowscale.policy.sim.Trajectory;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * The settling bar of issue 12 where every rescale rewinds, as a Flink in-place rescale does: it
 * restarts from the latest completed checkpoint, so a rescale costs checkpoint age + downtime of
 * input ({@link RewindingRealizer}). The DS2 policy with the settings table's defaults runs the
 * suite's word count and join-and-window job through their load changes, once learning the input
 * each rescale cost and once learning only the downtime. Run as docs/benchmarks.md says ("A
 * rescale's cost in re-read input"); the module's exec:java runs {@link ComparisonReport}.
 */
public final class RewindSettling {

    /** Flink's in-place rescales were down 2–5 s on the side-by-side word count. */
    static final Duration DOWNTIME = Duration.ofSeconds(5);

    /**
     * Checkpoint ages at a rescale: aligned checkpoints under backpressure took 11–58 s there. Both
     * at most the 61 s before the first rescale, so that every rescale rewinds the same.
     */
    static final List<Duration> AGES = List.of(Duration.ofSeconds(30), Duration.ofSeconds(60));

    private RewindSettling() {}

    public static void main(String[] args) {
        print(System.out);
    }

    static void print(PrintStream out) {
        out.println(
                "| scenario | checkpoint age | planned with | settled | violations | rescales"
                        + " | over-provisioned instance-min |");
        out.println("|---|---|---|---|---|---|---|");
        for (Scenario s : List.of(ScenarioSuite.wordCount(), ScenarioSuite.joinAndWindow())) {
            for (Duration age : AGES) {
                for (boolean learnsInput : List.of(true, false)) {
                    SettlingReport r = run(s, age, learnsInput);
                    out.printf(
                            "| %s | %d s | %s | %s | %s | %d | %.1f |%n",
                            s.name(),
                            age.toSeconds(),
                            learnsInput ? "input cost" : "downtime only",
                            r.settled() ? "yes" : "no",
                            r.violationCounts(),
                            r.summary().rescales(),
                            r.summary().overProvisionedInstanceMinutes());
                }
            }
        }
    }

    /**
     * One scenario, every rescale rewinding {@code age}, judged by the table's bar with a reserve
     * for what a rescale costs (age + downtime).
     */
    static SettlingReport run(Scenario scenario, Duration age, boolean learnsInput) {
        return check(trajectory(scenario, age, learnsInput), age);
    }

    /** The table's bar, with a reserve for a rescale that rewinds {@code age}. */
    static SettlingReport check(Trajectory trajectory, Duration age) {
        return SettlingReport.check(trajectory, TableDefaults.criteria(age.plus(DOWNTIME)));
    }

    /** The simulation with every rescale realized by a {@link RewindingRealizer}. */
    static Trajectory trajectory(Scenario scenario, Duration age, boolean learnsInput) {
        return new Simulation(
                        scenario,
                        clock -> new Ds2Policy(TableDefaults.policy(), clock),
                        TableDefaults.settings(DOWNTIME),
                        (model, clock) ->
                                new RewindingRealizer(model, DOWNTIME, age, learnsInput, clock))
                .run(ScenarioSuite.RUN);
    }
}
