package dev.flowscale.policy.sim;

import java.io.PrintStream;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the {@link ScenarioSuite} with the defaults of the settings table ({@link TableDefaults}) at
 * rescale downtimes of 2, 30 and 60 s and prints, per downtime, how many scenarios settled and how
 * often each settling criterion failed, with the first violations as examples, and every criterion
 * missed where the report shows it impossible or not worth its cost ({@link
 * SettlingReport.Exemption}, with the computed bound or cost); scenarios named as arguments (or
 * every failing one, with {@code all-failing}) get every violation, their summary and their rescale
 * decisions printed; {@code 2s}, {@code 30s} or {@code 60s} runs only those downtimes. Run with
 * {@code mvn -q -pl scaling-policy exec:java
 * -Dexec.mainClass=dev.flowscale.policy.sim.SettlingSuiteReport [-Dexec.args="wordcount
 * join-and-window"]}.
 */
public final class SettlingSuiteReport {

    /** The rescale downtimes issue 12 asks a policy to settle at. */
    public static final List<Duration> DOWNTIMES =
            List.of(Duration.ofSeconds(2), Duration.ofSeconds(30), Duration.ofSeconds(60));

    private static final int EXAMPLES = 3;

    private SettlingSuiteReport() {}

    public static void main(String[] args) {
        print(System.out, List.of(args));
    }

    static void print(PrintStream out, List<String> detailed) {
        List<Scenario> suite = ScenarioSuite.all();
        List<Duration> asked =
                DOWNTIMES.stream().filter(d -> detailed.contains(d.toSeconds() + "s")).toList();
        for (Duration downtime : asked.isEmpty() ? DOWNTIMES : asked) {
            List<SettlingReport> reports = suite.stream().map(s -> run(s, downtime)).toList();
            Map<SettlingReport.Criterion, Long> failed =
                    new EnumMap<>(SettlingReport.Criterion.class);
            Map<SettlingReport.Exemption.Kind, Long> exempted =
                    new EnumMap<>(SettlingReport.Exemption.Kind.class);
            reports.forEach(
                    r -> r.violationCounts().keySet().forEach(c -> failed.merge(c, 1L, Long::sum)));
            reports.forEach(
                    r ->
                            r.exemptionCounts()
                                    .keySet()
                                    .forEach(k -> exempted.merge(k, 1L, Long::sum)));
            out.printf(
                    "downtime %ds: %d of %d scenarios settled (%d with no exemption);"
                            + " scenarios failing each criterion: %s; scenarios with a criterion missed"
                            + " where the report shows it impossible or not worth its cost: %s%n",
                    downtime.toSeconds(),
                    reports.stream().filter(SettlingReport::settled).count(),
                    reports.size(),
                    reports.stream().filter(r -> r.settled() && r.exemptions().isEmpty()).count(),
                    failed,
                    exempted);
            reports.stream()
                    .flatMap(r -> r.exemptions().stream())
                    .forEach(e -> out.println("  exempted: " + e));
            reports.stream()
                    .flatMap(r -> r.violations().stream().limit(1))
                    .limit(EXAMPLES)
                    .forEach(v -> out.println("  e.g. " + v));
            suite.stream()
                    .filter(s -> detailed.contains(s.name()) || detailed.contains("all-failing"))
                    .forEach(s -> detail(out, s, downtime, detailed.contains("all-failing")));
        }
    }

    /**
     * Every violation, load change and rescale decision of one scenario (each operator's change
     * with the last reason it was given), so a failure's cause can be read off its decisions.
     */
    private static void detail(
            PrintStream out, Scenario scenario, Duration downtime, boolean onlyFailing) {
        Trajectory t = trajectory(scenario, downtime);
        SettlingReport r = SettlingReport.check(t, TableDefaults.criteria(downtime));
        if (onlyFailing && r.settled() && r.exemptions().isEmpty()) {
            return;
        }
        out.println("  " + r.scenario() + ": " + r.summary());
        r.loadChanges().forEach(c -> out.println("    " + c));
        r.violations().forEach(v -> out.println("    " + v));
        r.exemptions().forEach(e -> out.println("    exempted: " + e));
        printDecisions(out, t);
    }

    /** Every rescale decision: each operator's change with its reasons. */
    static void printDecisions(PrintStream out, Trajectory t) {
        for (var d : t.scaleDecisions()) {
            out.println(
                    "    decision @"
                            + Duration.between(Simulation.EPOCH, d.time()).toSeconds()
                            + "s");
            d.operators().values().stream()
                    .filter(op -> op.changes())
                    .forEach(
                            op ->
                                    out.println(
                                            "      "
                                                    + op.operatorId()
                                                    + " "
                                                    + op.currentParallelism()
                                                    + " -> "
                                                    + op.newParallelism()
                                                    + ": "
                                                    + String.join(" | ", op.reasons())));
        }
    }

    private static Trajectory trajectory(Scenario scenario, Duration downtime) {
        return Simulation.ds2(scenario, TableDefaults.policy(), TableDefaults.settings(downtime))
                .run(ScenarioSuite.RUN);
    }

    /**
     * The DS2 policy with the defaults of the settings table on one scenario, judged by the table's
     * catch-up time and interval.
     */
    public static SettlingReport run(Scenario scenario, Duration downtime) {
        return SettlingReport.check(
                trajectory(scenario, downtime), TableDefaults.criteria(downtime));
    }
}
