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
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each operator's true processing rate chained (its sampled share of its chain's useful time) next
 * to the same operator's rate unchained (a thread of its own), on word count, Nexmark Q5 and a
 * chain of synthetic CPU costs (2, 6 and 2 µs per record), every operator at parallelism 1 and the
 * sources unthrottled. Prints one table row per operator.
 *
 * <pre>
 * java -cp bench/target/flowscale-bench.jar:... dev.flowscale.bench.ChainAccuracyBenchmark \
 *     [--seconds 10] [--warmup 5]
 * </pre>
 */
public final class ChainAccuracyBenchmark {
    private static final Duration STARTUP_LIMIT = Duration.ofSeconds(120);

    private ChainAccuracyBenchmark() {}

    public static void main(String[] args) throws Exception {
        Duration window = Duration.ofSeconds(option(args, "--seconds", 10));
        Duration warmUp = Duration.ofSeconds(option(args, "--warmup", 5));
        System.out.println(
                "| job | operator | chained records/s | unchained records/s | chained/unchained |");
        System.out.println("|---|---|---:|---:|---:|");
        for (Map.Entry<String, JobGraph> job : jobs().entrySet()) {
            Map<String, OperatorRates> chained = measure(job.getValue(), warmUp, window);
            Map<String, OperatorRates> alone = measure(job.getValue().unchained(), warmUp, window);
            for (String op : job.getValue().topologicalOrder()) {
                double c = chained.get(op).trueProcessingRate();
                double u = alone.get(op).trueProcessingRate();
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %s | %.0f | %.0f | %.3f |%n",
                        job.getKey(),
                        op,
                        c,
                        u,
                        c / u);
            }
        }
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

    private static Map<String, OperatorRates> measure(
            JobGraph graph, Duration warmUp, Duration window) throws Exception {
        try (RunningJob job = RunningJob.start(graph, JobConfig.defaults())) {
            Thread.sleep(warmUp.toMillis());
            awaitRecordsEverywhere(job, graph);
            JobMetricsSnapshot start = job.metrics();
            Thread.sleep(window.toMillis());
            Map<String, OperatorRates> rates = job.metrics().ratesSince(start);
            if (job.status() != RunningJob.Status.RUNNING) {
                throw new IllegalStateException(
                        graph.jobName() + " is " + job.status() + " at the end of the window");
            }
            job.cancel();
            return rates;
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
