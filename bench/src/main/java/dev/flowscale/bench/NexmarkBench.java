package dev.flowscale.bench;

import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Nexmark Q1, Q2, Q3, Q5, Q8 and Q11 throughput on flowscale (chained where the graph allows) and
 * on Flink 2.3 in local mode (default chaining), every operator at the same parallelism (1 and 2 by
 * default), each run a fresh JVM, the contenders interleaved. Both read the same generated events
 * (seed 42, 10,000 events per second of event time; Q5: 10 s windows every 2 s; Q8: 10 s tumbling
 * windows; Q11: sessions with a 10 s gap). The rate counts events as the source makes them, between
 * the first 20 % and the last: the channels are bounded on both engines, so the source keeps the
 * pace of the slowest operator; CPU per event is this JVM's CPU time (all threads) over the same
 * part. Prints figures; asserts nothing.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" dev.flowscale.bench.NexmarkBench \
 *     [--runs 5] [--events 5000000] [--queries q1,q2,q3,q5,q8,q11] [--parallelism 1,2] \
 *     [--contenders flowscale,flink]
 * </pre>
 */
public final class NexmarkBench {
    static final Duration Q5_SIZE = Duration.ofSeconds(10);
    static final Duration Q5_SLIDE = Duration.ofSeconds(2);
    static final Duration Q8_WINDOW = Duration.ofSeconds(10);
    static final Duration Q11_GAP = Duration.ofSeconds(10);
    static final List<String> QUERIES = List.of("q1", "q2", "q3", "q5", "q8", "q11");
    private static final NexmarkGenerator GENERATOR = NexmarkGenerator.standard();
    private static final double WARMUP = 0.2;
    private static final String JVM = "-Xms2g -Xmx2g -XX:+UseG1GC";

    /**
     * With {@code -Dnexmark.threadCpu=true} a single run ({@code run QUERY CONTENDER P EVENTS})
     * also prints its flowscale threads' CPU ns per event by role, over the whole run.
     */
    static final String THREAD_CPU = "nexmark.threadCpu";

    /**
     * Events each source thread generates before it adds them to the meter: one shared counter
     * updated per event would cost two source threads more than the events themselves.
     */
    private static final int COUNT_BATCH = 256;

    private static final ThreadLocal<int[]> UNCOUNTED = ThreadLocal.withInitial(() -> new int[1]);

    private NexmarkBench() {}

    /** Event {@code n}, counted on the run's meter in batches of {@value #COUNT_BATCH}. */
    static Event event(long n) {
        int[] uncounted = UNCOUNTED.get();
        if (++uncounted[0] == COUNT_BATCH) {
            SinkMeter.recordBatch(COUNT_BATCH);
            uncounted[0] = 0;
        }
        return GENERATOR.event(n);
    }

    static String unknownQuery(String query) {
        return "--queries: unknown query '" + query + "'; use some of " + String.join(",", QUERIES);
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 5 && args[0].equals("run")) {
            measure(args[1], args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]));
            return;
        }
        NexmarkOptions options = NexmarkOptions.parse(args);
        for (String query : options.queries()) {
            for (int parallelism : options.parallelisms()) {
                compare(options, query, parallelism);
            }
        }
    }

    /** The contenders' runs of one query at one parallelism, interleaved, then their medians. */
    private static void compare(NexmarkOptions options, String query, int parallelism)
            throws Exception {
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        for (int run = 0; run < options.runs(); run++) {
            for (String contender : options.contenders()) {
                double[] result = NexmarkFork.run(query, contender, parallelism, options.events());
                results.computeIfAbsent(contender, c -> new ArrayList<>()).add(result);
                System.out.printf(
                        Locale.ROOT,
                        "nexmark-%s p=%d %-9s run %d: %,.0f events/s, %.1f CPU ns per event%n",
                        query,
                        parallelism,
                        contender,
                        run + 1,
                        result[0],
                        result[1]);
            }
        }
        results.forEach((contender, r) -> printMedian(options, query, parallelism, contender, r));
    }

    private static void printMedian(
            NexmarkOptions options,
            String query,
            int parallelism,
            String contender,
            List<double[]> results) {
        Stats rate = Stats.of(results.stream().map(r -> r[0]).toList());
        Stats cpu = Stats.of(results.stream().map(r -> r[1]).toList());
        System.out.printf(
                Locale.ROOT,
                "nexmark-%s p=%d %-9s median %,.0f events/s (min %,.0f, max %,.0f),"
                        + " %.1f CPU ns per event, over %d runs of %,d events%n",
                query,
                parallelism,
                contender,
                rate.median(),
                rate.min(),
                rate.max(),
                cpu.median(),
                rate.runs(),
                options.events());
    }

    /** One run in this (forked) JVM; prints its result for {@link NexmarkFork} to read. */
    private static void measure(String query, String contender, int parallelism, long events)
            throws Exception {
        // Each source thread leaves fewer than COUNT_BATCH events uncounted at its end.
        SinkMeter meter = SinkMeter.arm(events - (long) parallelism * COUNT_BATCH, WARMUP);
        ThreadCpuTally threads = Boolean.getBoolean(THREAD_CPU) ? ThreadCpuTally.start() : null;
        if (contender.equals("flink")) {
            NexmarkFlinkJobs.run(query, events, parallelism);
        } else {
            try (RunningJob running =
                    RunningJob.start(
                            flowscaleJob(query, events, parallelism), JobConfig.defaults())) {
                running.await();
            }
        }
        if (!meter.complete()) {
            System.out.println(
                    "FAILED counted " + meter.count() + " of " + meter.expected() + " events");
            System.exit(2);
        }
        System.out.printf(
                Locale.ROOT,
                "RESULT %.1f %.1f%n",
                meter.measuredRecords() / meter.measuredSeconds(),
                meter.measuredCpuSeconds() * 1e9 / meter.measuredRecords());
        if (threads != null) {
            System.out.println("THREAD CPU ns per event " + threads.perEvent(events));
        }
        System.exit(0);
    }

    /** The query as the DS2 convergence runs use it, every operator at {@code parallelism}. */
    static JobGraph flowscaleJob(String query, long events, int parallelism) {
        GeneratorSource<Event> source = new GeneratorSource<>(null, NexmarkBench::event, events);
        JobBuilder job =
                switch (query) {
                    case "q1" -> NexmarkQueries.q1(query, source, Sinks.counting());
                    case "q2" -> NexmarkQueries.q2(query, source, Sinks.counting());
                    case "q3" -> NexmarkQueries.q3(query, source, Sinks.counting());
                    case "q5" ->
                            NexmarkQueries.q5(query, source, Sinks.counting(), Q5_SIZE, Q5_SLIDE);
                    case "q8" -> NexmarkQueries.q8(query, source, Sinks.counting(), Q8_WINDOW);
                    case "q11" -> NexmarkQueries.q11(query, source, Sinks.counting(), Q11_GAP);
                    default -> throw new IllegalArgumentException(unknownQuery(query));
                };
        JobGraph graph = job.build();
        Map<String, Integer> everyOperator = new HashMap<>();
        graph.topologicalOrder().forEach(op -> everyOperator.put(op, parallelism));
        return graph.withParallelism(everyOperator);
    }
}
