package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingPolicy;
import dev.flowscale.policy.ds2.Ds2Policy;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Prints, as a Markdown table, how DS2 (exact, and with production guards) sizes the DS2 paper's
 * word count under linear scaling, non-linear scaling (α = 0.8) and 30 % key skew. The comparison
 * with the real Flink autoscaler is the policy-comparison module's {@code ComparisonReport}. Run
 * with {@code mvn -q -pl scaling-policy exec:java
 * -Dexec.mainClass=dev.flowscale.policy.sim.SimulationReport}.
 */
public final class SimulationReport {

    private static final Duration RUN = Duration.ofHours(2);
    private static final double PER_MINUTE = 1 / 60.0;

    record Contender(String name, Function<Clock, ScalingPolicy> policy) {}

    private SimulationReport() {}

    public static void main(String[] args) {
        print(System.out);
    }

    static void print(PrintStream out) {
        out.println(
                "| scenario | policy | scale decisions | last change (s) | final flatMap/count | optimum |"
                        + " over-provisioned instance-s | under-provisioned instance-s | backlog at end (records) |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (Scenario scenario : scenarios()) {
            for (Contender c : contenders()) {
                Trajectory t =
                        new Simulation(scenario, c.policy(), SimulationSettings.defaults())
                                .run(RUN);
                out.println(row(scenario, c.name(), t));
            }
        }
    }

    static List<Scenario> scenarios() {
        SimOperator flatMap = SimOperator.operator("flatMap", 100_000 * PER_MINUTE, 20);
        SimOperator count = SimOperator.operator("count", 1_000_000 * PER_MINUTE, 0);
        return List.of(
                wordCount("linear", flatMap, count),
                wordCount("α = 0.8", flatMap.withAlpha(0.8), count.withAlpha(0.8)),
                wordCount(
                        "30 % skew on count (10M words/min per instance)",
                        flatMap,
                        SimOperator.operator("count", 10_000_000 * PER_MINUTE, 0).withSkew(0.3)));
    }

    private static Scenario wordCount(String name, SimOperator flatMap, SimOperator count) {
        SimOperator source =
                SimOperator.source(
                        "source",
                        100_000_000 * PER_MINUTE,
                        RateProfile.constant(1_000_000 * PER_MINUTE));
        return Scenario.of(
                name,
                List.of(source, flatMap, count),
                List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")),
                1);
    }

    static List<Contender> contenders() {
        PolicyConfig guarded =
                PolicyConfig.builder()
                        .catchUpDuration(Duration.ofMinutes(10))
                        .scaleDownDelay(Duration.ofMinutes(5))
                        .warmUp(Duration.ofSeconds(10))
                        .skewCorrection(true)
                        .build();
        return List.of(
                new Contender("DS2 exact", clock -> new Ds2Policy(PolicyConfig.exactDs2(), clock)),
                new Contender(
                        "DS2 + guards (catch-up 10 min, scale-down delay 5 min, skew correction)",
                        clock -> new Ds2Policy(guarded, clock)));
    }

    private static String row(Scenario scenario, String policy, Trajectory t) {
        Map<String, Integer> optimum = scenario.optimalParallelism(0);
        List<ScalingDecision> scales = t.scaleDecisions();
        long lastChange =
                scales.isEmpty()
                        ? 0
                        : Duration.between(Simulation.EPOCH, scales.get(scales.size() - 1).time())
                                .toSeconds();
        Map<String, Integer> end = t.finalParallelism();
        return String.format(
                "| %s | %s | %d | %d | %d/%d | %d/%d | %.0f | %.0f | %.0f |",
                scenario.name(),
                policy,
                scales.size(),
                lastChange,
                end.get("flatMap"),
                end.get("count"),
                optimum.get("flatMap"),
                optimum.get("count"),
                t.overProvisionedInstanceSeconds(scenario::optimalParallelism, 1),
                t.underProvisionedInstanceSeconds(scenario::optimalParallelism, 1),
                t.points().get(t.points().size() - 1).backlog());
    }
}
