package dev.flowscale.bench;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.CostChain;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.engine.runtime.ChainPlan;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Each operator's true processing rate chained (its sampled share of its chain's useful time) next
 * to the same operator's rate unchained (a thread of its own), on word count, Nexmark Q5 and a
 * chain of synthetic CPU costs (2, 6 and 2 µs per record), every operator at parallelism 1 and the
 * sources unthrottled; with the DS2 policy's decision on each measurement (default settings, no
 * history) for the same target: {@code --target} times the source's observed rate in the chained
 * runs (median). Per job, after one unmeasured run of each (JIT warm-up in this JVM), {@code
 * --runs} pairs of a chained and an unchained run, which of the two goes first alternating. Prints
 * one table row per operator (the head of the thread it runs on when chained: an operator that
 * heads its own thread runs alone in both, so its difference is the runs' noise; median rates over
 * the runs, difference = chained / unchained − 1, the decided parallelism of each run) and one line
 * per job saying in how many run pairs the two decisions agree.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" \
 *     dev.flowscale.bench.ChainAccuracyBenchmark [--seconds 10] [--warmup 5] [--target 3] [--runs 3]
 * </pre>
 */
public final class ChainAccuracyBenchmark {
    private static final Duration STARTUP_LIMIT = Duration.ofSeconds(120);

    private ChainAccuracyBenchmark() {}

    public static void main(String[] args) throws Exception {
        Duration window = Duration.ofSeconds(option(args, "--seconds", 10));
        Duration warmUp = Duration.ofSeconds(option(args, "--warmup", 5));
        long targetFactor = option(args, "--target", 3);
        int runs = (int) option(args, "--runs", 3);
        System.out.println(
                "| job | operator | thread (chain head) | chained rec/s | unchained rec/s | difference"
                        + " | chained, less core wait | unchained, less core wait | difference"
                        + " | chained rec/CPU s | unchained rec/CPU s | difference"
                        + " | decisions chained | decisions unchained |");
        System.out.println("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, JobGraph> job : jobs().entrySet()) {
            JobGraph graph = job.getValue();
            Pairs pairs = Pairs.measure(graph, runs, warmUp, window);
            double target =
                    targetFactor
                            * Stats.of(
                                            pairs.chained().stream()
                                                    .map(r -> sourceRate(graph, r))
                                                    .toList())
                                    .median();
            report(
                    job.getKey(),
                    graph,
                    decided(graph, pairs.chained(), target),
                    decided(graph, pairs.alone(), target),
                    target);
        }
    }

    /** The counters at the start and end of each measured window, chained and unchained. */
    private record Pairs(List<JobMetricsSnapshot[]> chained, List<JobMetricsSnapshot[]> alone) {
        static Pairs measure(JobGraph graph, int runs, Duration warmUp, Duration window)
                throws Exception {
            Pairs pairs = new Pairs(new ArrayList<>(), new ArrayList<>());
            // One unmeasured run of each first: the JIT compiles the job's code in whichever runs
            // first, and that run's rates came out lowest.
            ChainAccuracyBenchmark.measure(graph, warmUp, window);
            ChainAccuracyBenchmark.measure(graph.unchained(), warmUp, window);
            for (int run = 0; run < runs; run++) {
                // Alternating which goes first, so that neither is always measured later.
                boolean chainedFirst = run % 2 == 0;
                JobGraph first = chainedFirst ? graph : graph.unchained();
                JobGraph second = chainedFirst ? graph.unchained() : graph;
                JobMetricsSnapshot[] a = ChainAccuracyBenchmark.measure(first, warmUp, window);
                JobMetricsSnapshot[] b = ChainAccuracyBenchmark.measure(second, warmUp, window);
                pairs.chained().add(chainedFirst ? a : b);
                pairs.alone().add(chainedFirst ? b : a);
            }
            return pairs;
        }
    }

    private static List<ChainDecision> decided(
            JobGraph graph, List<JobMetricsSnapshot[]> runs, double target) {
        return runs.stream().map(r -> ChainDecision.of(graph, r[0], r[1], target)).toList();
    }

    private static void report(
            String job,
            JobGraph graph,
            List<ChainDecision> chained,
            List<ChainDecision> alone,
            double target) {
        Map<String, String> heads = ChainPlan.heads(graph);
        for (String op : graph.topologicalOrder()) {
            row(job, op, heads.get(op), chained, alone);
        }
        long same =
                IntStream.range(0, chained.size())
                        .filter(
                                i ->
                                        chained.get(i)
                                                .decision()
                                                .newParallelism()
                                                .equals(alone.get(i).decision().newParallelism()))
                        .count();
        System.out.printf(
                Locale.ROOT,
                "%s, sources at %,.0f records/s: decisions the same in %d of %d run pairs"
                        + " (first pair: chained %s; unchained %s)%n",
                job,
                target,
                same,
                chained.size(),
                summary(chained.get(0).decision()),
                summary(alone.get(0).decision()));
    }

    /** Medians over the runs; the decided parallelism of each run. */
    private static void row(
            String job,
            String op,
            String head,
            List<ChainDecision> chained,
            List<ChainDecision> alone) {
        double c = median(chained, d -> d.trueProcessingRate(op));
        double u = median(alone, d -> d.trueProcessingRate(op));
        double cc = median(chained, d -> d.coreWaitCorrected(op));
        double uc = median(alone, d -> d.coreWaitCorrected(op));
        double cp = median(chained, d -> d.perCpuSecond().get(op));
        double up = median(alone, d -> d.perCpuSecond().get(op));
        System.out.printf(
                Locale.ROOT,
                "| %s | %s | %s | %.0f | %.0f | %+.1f %% | %.0f | %.0f | %+.1f %% | %.0f | %.0f"
                        + " | %+.1f %% | %s | %s |%n",
                job,
                op,
                head,
                c,
                u,
                (c / u - 1) * 100,
                cc,
                uc,
                (cc / uc - 1) * 100,
                cp,
                up,
                (cp / up - 1) * 100,
                chained.stream().map(d -> d.parallelism(op)).collect(Collectors.joining(",")),
                alone.stream().map(d -> d.parallelism(op)).collect(Collectors.joining(",")));
    }

    private static double median(List<ChainDecision> runs, ToDoubleFunction<ChainDecision> rate) {
        return Stats.of(runs.stream().map(rate::applyAsDouble).toList()).median();
    }

    private static String summary(ScalingDecision decision) {
        return decision.blockReason().isPresent()
                ? "blocked: " + String.join("; ", decision.reasons())
                : decision.outcome() + " " + decision.newParallelism();
    }

    /** The sources' observed output rate in a run: what the unthrottled job sustains. */
    private static double sourceRate(JobGraph graph, JobMetricsSnapshot[] run) {
        Map<String, OperatorRates> rates = run[1].ratesSince(run[0]);
        return graph.topologicalOrder().stream()
                .filter(op -> graph.inputsOf(op).isEmpty())
                .mapToDouble(op -> rates.get(op).observedOutputRate())
                .sum();
    }

    private static long option(String[] args, String name, long fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Long.parseLong(args[i + 1]);
            }
        }
        return fallback;
    }

    private static Map<String, JobGraph> jobs() {
        SentenceGenerator sentences = Workload.sentences();
        JobGraph wordCount =
                WordCount.build(
                                "wordcount",
                                Sources.generator(Long.MAX_VALUE, sentences::sentence),
                                Sinks.counting())
                        .build();
        JobGraph q5 =
                NexmarkQueries.q5(
                                "q5",
                                // Not NexmarkBench::event: that counts each event on a
                                // SinkMeter, which this JVM never arms, so the source would fail
                                // at its first event.
                                new GeneratorSource<>(
                                        null, NexmarkGenerator.standard()::event, Long.MAX_VALUE),
                                Sinks.counting(),
                                NexmarkBench.Q5_SIZE,
                                NexmarkBench.Q5_SLIDE)
                        .build();
        JobGraph costs =
                CostChain.build(
                                "costs",
                                Sources.generator(Long.MAX_VALUE, seq -> seq),
                                List.of(
                                        new CostChain.Stage(
                                                "light", SyntheticCost.parse("cpu:2us")),
                                        new CostChain.Stage(
                                                "heavy", SyntheticCost.parse("cpu:6us")),
                                        new CostChain.Stage(
                                                "last", SyntheticCost.parse("cpu:2us"))),
                                Sinks.counting())
                        .build();
        return Map.of("wordcount", wordCount, "nexmark-q5", q5, "cost-chain", costs);
    }

    /** The job's counters at the start and at the end of the measured window. */
    private static JobMetricsSnapshot[] measure(JobGraph graph, Duration warmUp, Duration window)
            throws Exception {
        try (RunningJob job = RunningJob.start(graph, JobConfig.defaults())) {
            Thread.sleep(warmUp.toMillis());
            awaitRecordsEverywhere(job, graph);
            JobMetricsSnapshot start = job.metrics();
            Thread.sleep(window.toMillis());
            JobMetricsSnapshot end = job.metrics();
            if (job.status() != RunningJob.Status.RUNNING) {
                throw new IllegalStateException(
                        graph.jobName() + " is " + job.status() + " at the end of the window");
            }
            job.cancel();
            return new JobMetricsSnapshot[] {start, end};
        }
    }

    /**
     * Waits until every operator has taken in records, and fails with the job's failure if it ends:
     * a window that opens while one is still starting (class loading on a loaded machine) finds the
     * operators before it blocked on output all along, with no records and no useful time, and
     * their rates 0 / 0 (NaN); so does a failed job's.
     */
    private static void awaitRecordsEverywhere(RunningJob job, JobGraph graph)
            throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP_LIMIT.toNanos();
        for (String op : graph.topologicalOrder()) {
            while (job.metrics().find(op, 0).recordsIn() == 0) {
                if (job.status() != RunningJob.Status.RUNNING) {
                    job.await(); // throws the job's failure, naming the operator
                    throw new IllegalStateException(graph.jobName() + " ended before " + op);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            graph.jobName() + ": " + op + " took no records in " + STARTUP_LIMIT);
                }
                Thread.sleep(50);
            }
        }
    }
}
