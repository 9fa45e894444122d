package dev.flowscale.comparison;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.ScenarioSuite;
import dev.flowscale.policy.sim.SettlingCriteria;
import dev.flowscale.policy.sim.SettlingReport;
import dev.flowscale.policy.sim.SettlingReport.Summary;
import dev.flowscale.policy.sim.SettlingSuiteReport;
import dev.flowscale.policy.sim.Simulation;
import dev.flowscale.policy.sim.TableDefaults;
import dev.flowscale.policy.sim.Trajectory;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.ToIntFunction;
import org.apache.flink.configuration.Configuration;

/**
 * flowscale's Ds2Policy (table defaults), a measured variant of it that folds trims into the next
 * load change ({@link FoldedTrims}: one rescale per load change, not flowscale's policy), and the
 * real Flink autoscaler (flink-autoscaler 1.10.0, with its defaults and with {@linkplain
 * FlinkAutoscalerSimulation#fastWindows() fast windows}) side by side on {@link ScenarioSuite} at
 * rescale downtimes of 2, 30 and 60 s, printed as a Markdown table: one row per policy for the word
 * count and the join-and-window job, one aggregate row per policy for the random graphs ({@code
 * --all}: one row per graph). Each policy's backlog is judged against its own catch-up time plus
 * one interval. Run from the repository root with:
 *
 * <pre>
 * mvn -B -q -pl policy-comparison -am install -DskipTests
 * mvn -B -q -pl policy-comparison exec:java [-Dexec.args=--all]
 * </pre>
 */
public final class ComparisonReport {

    /** Flink's {@code job.autoscaler.catch-up.duration} default, and its control loop interval. */
    static final SettlingCriteria FLINK_CRITERIA =
            SettlingCriteria.of(
                    Duration.ofMinutes(30), FlinkAutoscalerSimulation.CONTROL_LOOP_INTERVAL);

    /** The fast-windows run is judged against its own 5-minute catch-up time. */
    static final SettlingCriteria FLINK_FAST_CRITERIA =
            SettlingCriteria.of(
                    FlinkAutoscalerSimulation.FAST_CATCH_UP,
                    FlinkAutoscalerSimulation.CONTROL_LOOP_INTERVAL);

    /** A policy under comparison: how to run it on a scenario at a downtime. */
    record Contender(String name, BiFunction<Scenario, Duration, SettlingReport> run) {}

    private ComparisonReport() {}

    public static void main(String[] args) {
        print(System.out, List.of(args).contains("--all"));
    }

    static List<Contender> contenders() {
        return List.of(
                new Contender("flowscale DS2 (table defaults)", SettlingSuiteReport::run),
                new Contender(
                        "flowscale DS2, trims folded into the next load change (variant)",
                        ComparisonReport::foldedTrims),
                new Contender(
                        "flink-autoscaler 1.10.0 (defaults)",
                        (s, d) ->
                                flink(s, d, FlinkAutoscalerSimulation.defaults(), FLINK_CRITERIA)),
                new Contender(
                        "flink-autoscaler 1.10.0 (fast windows)",
                        (s, d) ->
                                flink(
                                        s,
                                        d,
                                        FlinkAutoscalerSimulation.fastWindows(),
                                        FLINK_FAST_CRITERIA)));
    }

    /**
     * The table defaults with every trim at the load of the last rescale held until the load moves
     * ({@link FoldedTrims}), judged by the same criteria as flowscale's own row.
     */
    static SettlingReport foldedTrims(Scenario scenario, Duration downtime) {
        return SettlingReport.check(
                foldedTrimsRun(scenario, downtime), TableDefaults.criteria(downtime));
    }

    static Trajectory foldedTrimsRun(Scenario scenario, Duration downtime) {
        PolicyConfig config = TableDefaults.policy();
        return new Simulation(
                        scenario,
                        clock -> new FoldedTrims(new Ds2Policy(config, clock), config.loadChange()),
                        TableDefaults.settings(downtime))
                .run(ScenarioSuite.RUN);
    }

    static SettlingReport flink(
            Scenario scenario,
            Duration downtime,
            Configuration configuration,
            SettlingCriteria criteria) {
        var run =
                new FlinkAutoscalerSimulation(
                                scenario, TableDefaults.settings(downtime), configuration)
                        .run(ScenarioSuite.RUN);
        // an autoscaler that failed along the way would make its row meaningless: stop instead
        run.events().stream()
                .filter(e -> e.reason().equals(RecordingEventHandler.AUTOSCALER_ERROR_REASON))
                .findFirst()
                .ifPresent(
                        e -> {
                            throw new IllegalStateException(
                                    "flink-autoscaler failed on "
                                            + scenario.name()
                                            + " at a "
                                            + downtime.toSeconds()
                                            + " s downtime: "
                                            + e.message());
                        });
        return SettlingReport.check(run.trajectory(), criteria);
    }

    static void print(PrintStream out, boolean everyGraph) {
        out.println(
                "| scenario | downtime | policy | decisions | rescales | rescales per load change |"
                        + " time to sustaining (worst, s) | over-provisioned instance-min | backlog drained |"
                        + " peak backlog (records) | revisits |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        List<Scenario> suite = ScenarioSuite.all();
        for (Duration downtime : SettlingSuiteReport.DOWNTIMES) {
            for (Contender c : contenders()) {
                List<SettlingReport> reports =
                        suite.stream().map(s -> c.run().apply(s, downtime)).toList();
                for (SettlingReport r : everyGraph ? reports : reports.subList(0, 2)) {
                    out.println(row(r, downtime, c.name()));
                }
                if (!everyGraph) {
                    out.println(aggregate(reports.subList(2, reports.size()), downtime, c.name()));
                }
            }
        }
    }

    private static String row(SettlingReport r, Duration downtime, String policy) {
        Summary s = r.summary();
        return String.format(
                Locale.ROOT,
                "| %s | %d s | %s | %d | %d | %.2f | %s | %.1f | %s | %.0f | %d |",
                r.scenario(),
                downtime.toSeconds(),
                policy,
                s.decisions(),
                s.rescales(),
                perLoadChange(r),
                s.worstSecondsToSustain() < 0 ? "never" : Long.toString(s.worstSecondsToSustain()),
                s.overProvisionedInstanceMinutes(),
                s.drained() ? "yes" : "no",
                s.peakBacklog(),
                s.revisits());
    }

    /**
     * Means over the graphs, the median worst time to sustain, and counts of drained and revisiting
     * graphs.
     */
    private static String aggregate(
            List<SettlingReport> reports, Duration downtime, String policy) {
        List<Summary> s = reports.stream().map(SettlingReport::summary).toList();
        long never = s.stream().filter(x -> x.worstSecondsToSustain() < 0).count();
        long[] sustain =
                s.stream()
                        .filter(x -> x.worstSecondsToSustain() >= 0)
                        .mapToLong(Summary::worstSecondsToSustain)
                        .sorted()
                        .toArray();
        return String.format(
                Locale.ROOT,
                "| %d random graphs (mean; median) | %d s | %s | %.1f | %.1f | %.2f"
                        + " | median %s, never in %d | %.1f | %d of %d | median %.0f | %d (in %d graphs) |",
                reports.size(),
                downtime.toSeconds(),
                policy,
                mean(s, Summary::decisions),
                mean(s, Summary::rescales),
                reports.stream().mapToDouble(ComparisonReport::perLoadChange).average().orElse(0),
                sustain.length == 0 ? "-" : Long.toString(sustain[sustain.length / 2]),
                never,
                s.stream().mapToDouble(Summary::overProvisionedInstanceMinutes).average().orElse(0),
                s.stream().filter(Summary::drained).count(),
                s.size(),
                s.stream()
                        .mapToDouble(Summary::peakBacklog)
                        .sorted()
                        .skip(s.size() / 2)
                        .findFirst()
                        .orElse(0),
                s.stream().mapToInt(Summary::revisits).sum(),
                s.stream().filter(x -> x.revisits() > 0).count());
    }

    /**
     * Rescales per load change, the start counted as one: a policy that follows every change needs
     * at least one per change.
     */
    static double perLoadChange(SettlingReport r) {
        return r.loadChanges().isEmpty()
                ? 0
                : (double) r.summary().rescales() / r.loadChanges().size();
    }

    private static double mean(List<Summary> s, ToIntFunction<Summary> f) {
        return s.stream().mapToInt(f).average().orElse(0);
    }
}
