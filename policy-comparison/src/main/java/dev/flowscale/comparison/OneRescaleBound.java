package dev.flowscale.comparison;

import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.ScenarioSuite;
import dev.flowscale.policy.sim.SettlingReport;
import dev.flowscale.policy.sim.SettlingSuiteReport;
import dev.flowscale.policy.sim.TableDefaults;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fewest over-provisioned instance-minutes any policy that rescales at most once can have on a
 * scenario of {@link ScenarioSuite}, by arithmetic, next to what flowscale's policy measures with
 * its one rescale and one trim per load change. One rescale is flink-autoscaler's count with its
 * defaults. A policy that never rescales stays at parallelism 1, which sustains no scenario's base
 * rate; one whose single configuration does not sustain the peak (1.5×) owes a backlog that grows
 * for the 40 minutes of the peak and never drains in time. So its one configuration sustains the
 * peak, and it runs at least through the 40 minutes at 0.75×, where over-provisioning is measured
 * against the settling criteria's optimum (the minimum that also drains one downtime within the
 * catch-up time). Each operator then counts at least its peak minimum minus that optimum for the
 * whole phase; the start's backlog and the peak's own drain are ignored, so the bound is low. Run
 * from the repository root with:
 *
 * <pre>
 * mvn -B -q -pl policy-comparison -am install -DskipTests
 * mvn -B -q -pl policy-comparison exec:java -Dexec.mainClass=dev.flowscale.comparison.OneRescaleBound
 * </pre>
 */
public final class OneRescaleBound {

    private OneRescaleBound() {}

    public static void main(String[] args) {
        print(System.out);
    }

    /**
     * The bound in instance-minutes for {@code scenario} at a rescale downtime of {@code downtime}.
     */
    static double instanceMinutes(Scenario scenario, Duration downtime) {
        double reserve = downtime.toNanos() / (double) TableDefaults.CATCH_UP.toNanos();
        Map<String, Integer> peak = scenario.optimalParallelism(ScenarioSuite.STEP_UP);
        Map<String, Integer> low =
                scenario.optimalParallelism(ScenarioSuite.STEP_DOWN, 1 + reserve);
        long lowSeconds = ScenarioSuite.RUN.toSeconds() - ScenarioSuite.STEP_DOWN;
        int excess = 0;
        for (Map.Entry<String, Integer> e : peak.entrySet()) {
            excess += Math.max(0, e.getValue() - low.get(e.getKey()));
        }
        return excess * lowSeconds / 60.0;
    }

    static void print(PrintStream out) {
        out.println(
                "| scenario | downtime | one-rescale bound (instance-min) | flowscale measured"
                        + " (instance-min) | flowscale rescales | graphs where the bound exceeds flowscale |");
        out.println("|---|---|---:|---:|---:|---|");
        List<Scenario> suite = ScenarioSuite.all();
        for (Duration downtime : SettlingSuiteReport.DOWNTIMES) {
            double[] bound = new double[suite.size()];
            double[] measured = new double[suite.size()];
            int[] rescales = new int[suite.size()];
            for (int i = 0; i < suite.size(); i++) {
                SettlingReport.Summary s =
                        SettlingSuiteReport.run(suite.get(i), downtime).summary();
                bound[i] = instanceMinutes(suite.get(i), downtime);
                measured[i] = s.overProvisionedInstanceMinutes();
                rescales[i] = s.rescales();
            }
            for (int i = 0; i < 2; i++) {
                out.printf(
                        Locale.ROOT,
                        "| %s | %d s | %.1f | %.1f | %d | %s |%n",
                        suite.get(i).name(),
                        downtime.toSeconds(),
                        bound[i],
                        measured[i],
                        rescales[i],
                        bound[i] > measured[i] ? "yes" : "no");
            }
            int above = 0;
            double b = 0;
            double m = 0;
            double r = 0;
            for (int i = 2; i < suite.size(); i++) {
                above += bound[i] > measured[i] ? 1 : 0;
                b += bound[i];
                m += measured[i];
                r += rescales[i];
            }
            int n = suite.size() - 2;
            out.printf(
                    Locale.ROOT,
                    "| %d random graphs (mean) | %d s | %.1f | %.1f | %.2f | %d of %d |%n",
                    n,
                    downtime.toSeconds(),
                    b / n,
                    m / n,
                    r / n,
                    above,
                    n);
        }
    }
}
