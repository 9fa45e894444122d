package dev.flowscale.policy.bench;

import dev.flowscale.common.DurationText;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.settings.SettingValues;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Times one {@code Ds2Policy.decide} with the cluster defaults on random DAGs of each given size,
 * after each given length of history ({@link RunHistory}: what the loop hands the policy after
 * running the job that long at the default policy interval): untimed decisions until the compiler
 * has settled ({@link #warmUp}: at least 2,500), then N timed runs; prints per size and history a
 * Markdown row with the thread CPU time's median, p90 and p99, the wall median, decisions per CPU
 * second and CPU time per operator (flat when a decision is linear in the graph's size). Run with
 * {@code mvn -q -pl common,scaling-policy -am compile && mvn -q -pl scaling-policy exec:java
 * -Dexec.mainClass=dev.flowscale.policy.bench.DecisionBenchmark -Dexec.args="1000,10000 200
 * 0s,2.5h,24h"} (operator counts, timed runs at 1,000 operators, fewer in proportion above,
 * histories).
 */
public final class DecisionBenchmark {

    private static final Instant END = Instant.parse("2026-01-01T00:00:10Z");

    private DecisionBenchmark() {}

    public static void main(String[] args) {
        String sizes = args.length > 0 ? args[0] : "10,100,1000";
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        String histories = args.length > 2 ? args[2] : "0s";
        SettingValues settings = SettingValues.defaults();
        Ds2Policy policy = new Ds2Policy(settings.policy(), Clock.fixed(END, ZoneOffset.UTC));
        AutoscalerConfig loop = settings.autoscaler();
        System.out.println(
                "| operators | edges | history | decisions kept | runs | CPU median | CPU p90"
                        + " | CPU p99 | wall median | decisions/s (CPU) | CPU per operator |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String size : sizes.split(",")) {
            int operators = Integer.parseInt(size.trim());
            RandomDag dag = RandomDag.of(operators, new Random(42));
            for (String text : histories.split(",")) {
                Duration span = DurationText.parse("history", text.trim());
                ScalingHistory history =
                        RunHistory.of(
                                dag,
                                END,
                                span,
                                loop.policyInterval(),
                                loop.historySize(),
                                new Random(7));
                int n = Math.max(20, (int) ((long) runs * 1000 / Math.max(1000, operators)));
                row(dag, text.trim(), history, n, time(policy, dag, history, Math.max(50, n), n));
            }
        }
    }

    private static void row(
            RandomDag dag, String span, ScalingHistory history, int runs, long[][] nanos) {
        int operators = dag.topology().operators().size();
        double cpu = percentile(nanos[1], 0.5);
        System.out.printf(
                Locale.ROOT,
                "| %,d | %,d | %s | %,d | %,d | %.3f ms | %.3f ms | %.3f ms | %.3f ms"
                        + " | %,.0f | %.2f µs |%n",
                operators,
                dag.topology().edges().size(),
                span,
                history.decisions().size(),
                runs,
                cpu,
                percentile(nanos[1], 0.9),
                percentile(nanos[1], 0.99),
                percentile(nanos[0], 0.5),
                1000 / cpu,
                1000 * cpu / operators);
    }

    /** The value at {@code fraction} of the sorted durations, in milliseconds. */
    private static double percentile(long[] sorted, double fraction) {
        return sorted[Math.max(0, (int) Math.ceil(sorted.length * fraction) - 1)] / 1e6;
    }

    /**
     * Sorted wall-clock and thread-CPU durations of {@code runs} decisions after {@code warmUp}
     * untimed ones. CPU time is printed too because on a shared machine wall time mostly measures
     * waiting for a core.
     */
    static long[][] time(
            Ds2Policy policy, RandomDag dag, ScalingHistory history, int warmUp, int runs) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int sink = warmUp(policy, dag, history, warmUp);
        long[] wall = new long[runs];
        long[] cpu = new long[runs];
        for (int i = 0; i < runs; i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            ScalingDecision d = policy.decide(dag.topology(), dag.window(), history);
            wall[i] = System.nanoTime() - t0;
            cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            sink += d.operators().size();
        }
        if (sink == 0) {
            throw new IllegalStateException("no operator decided");
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return new long[][] {wall, cpu};
    }

    /**
     * Untimed decisions until the compiler has settled: at least {@code atLeast} and {@value
     * #SETTLED_MIN}, then rounds of {@value #ROUND} until a round's median CPU time is within
     * {@value #SETTLED_WITHIN}× the best round's (at most {@value #WARM_UP_MAX} decisions). Most of
     * a decision's passes run once per decision, each a loop over every operator, so the JIT counts
     * one call per decision: C2 compiles them after several hundred decisions, some are then
     * deoptimised and run interpreted again until they are recompiled hundreds of decisions later.
     * Timed per block of 100 decisions on 1,000 operators with 24 h of history, one JVM ran 1.6 ms
     * per decision after 500, 6-8.7 ms from 700 to 1,800, then 0.9-1.1 ms from there on; a fixed
     * warm-up of a few hundred decisions timed some JVMs in the first phase and others in the
     * second, which was the bimodality between JVMs.
     *
     * @return a sum of the decisions' sizes, so that no decision is optimised away
     */
    static int warmUp(Ds2Policy policy, RandomDag dag, ScalingHistory history, int atLeast) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int sink = 0;
        int done = 0;
        long best = Long.MAX_VALUE;
        long[] round = new long[ROUND];
        while (done < WARM_UP_MAX) {
            for (int i = 0; i < ROUND; i++, done++) {
                long c0 = threads.getCurrentThreadCpuTime();
                sink += policy.decide(dag.topology(), dag.window(), history).operators().size();
                round[i] = threads.getCurrentThreadCpuTime() - c0;
            }
            Arrays.sort(round);
            long median = round[ROUND / 2];
            best = Math.min(best, median);
            if (done >= Math.max(atLeast, SETTLED_MIN) && median <= best * SETTLED_WITHIN) {
                break;
            }
        }
        return sink;
    }

    /** Decisions per warm-up round. */
    private static final int ROUND = 50;

    /** Untimed decisions at least: past the recompilations seen up to about 1,800 decisions. */
    private static final int SETTLED_MIN = 2_500;

    /** Settled: a round's median CPU time within this factor of the best round's. */
    private static final double SETTLED_WITHIN = 1.25;

    private static final int WARM_UP_MAX = 6_000;

    /** A random DAG: the first 1 % of operators are sources, every other has 1-3 earlier inputs. */
    record RandomDag(JobTopology topology, MetricsWindow window) {

        static RandomDag of(int n, Random random) {
            int sources = Math.max(1, n / 100);
            List<OperatorSpec> specs = new ArrayList<>();
            List<Edge> edges = new ArrayList<>();
            List<OperatorMetrics> metrics = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int p = 1 + random.nextInt(8);
                specs.add(OperatorSpec.of("op" + i, p));
                double capacity = 1_000 + random.nextInt(100_000);
                OperatorMetrics m =
                        OperatorMetrics.of(
                                "op" + i,
                                p,
                                capacity * p,
                                capacity * p * 0.9,
                                capacity * p / 2,
                                capacity * p * 0.45);
                metrics.add(i < sources ? m.withSource(1_000, 500.0) : m);
                if (i >= sources) {
                    String to = "op" + i;
                    random.ints(1 + random.nextInt(3), 0, i)
                            .distinct()
                            .forEach(j -> edges.add(new Edge("op" + j, to)));
                }
            }
            return new RandomDag(
                    new JobTopology("bench", specs, edges),
                    MetricsWindow.of(END.minusSeconds(10), END, metrics));
        }
    }
}
