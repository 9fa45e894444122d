package dev.flowscale.bench;

import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Nexmark Q1 and Q5 throughput on flowscale (chained where the graph allows, parallelism 1) and on
 * Flink 2.3 in local mode (parallelism 1, default chaining), each run a fresh JVM, the two
 * interleaved. Both read the same generated events (seed 42, 10,000 events per second of event
 * time; Q5: 10 s windows every 2 s). The rate counts events as the source makes them, between the
 * first 20 % and the last: the channels are bounded on both engines, so the source keeps the pace
 * of the slowest operator; CPU per event is this JVM's CPU time (all threads) over the same part.
 * Prints figures; asserts nothing.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" dev.flowscale.bench.NexmarkBench \
 *     [--runs 3] [--events 5000000] [--queries q1,q5] [--contenders flowscale,flink]
 * </pre>
 */
public final class NexmarkBench {
    static final Duration SIZE = Duration.ofSeconds(10);
    static final Duration SLIDE = Duration.ofSeconds(2);
    private static final NexmarkGenerator GENERATOR = NexmarkGenerator.standard();
    private static final double WARMUP = 0.2;
    private static final String JVM = "-Xms2g -Xmx2g -XX:+UseG1GC";

    private NexmarkBench() {}

    /** Event {@code n}, counted on the run's meter. */
    static Event event(long n) {
        SinkMeter.record();
        return GENERATOR.event(n);
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("run")) {
            measure(args[1], args[2], Long.parseLong(args[3]));
            return;
        }
        Map<String, String> options = options(args);
        int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
        long events = Long.parseLong(options.getOrDefault("events", "5000000"));
        List<String> contenders =
                List.of(options.getOrDefault("contenders", "flowscale,flink").split(","));
        for (String query : options.getOrDefault("queries", "q1,q5").split(",")) {
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            Map<String, List<Double>> cpu = new LinkedHashMap<>();
            for (int run = 0; run < runs; run++) {
                for (String contender : contenders) {
                    double[] result = fork(query, contender, events);
                    rates.computeIfAbsent(contender, c -> new ArrayList<>()).add(result[0]);
                    cpu.computeIfAbsent(contender, c -> new ArrayList<>()).add(result[1]);
                    System.out.printf(
                            Locale.ROOT,
                            "nexmark-%s %-9s run %d: %,.0f events/s, %.1f CPU ns per event%n",
                            query,
                            contender,
                            run + 1,
                            result[0],
                            result[1]);
                }
            }
            rates.forEach(
                    (contender, r) -> {
                        Stats stats = Stats.of(r);
                        System.out.printf(
                                Locale.ROOT,
                                "nexmark-%s %-9s median %,.0f events/s (min %,.0f, max %,.0f),"
                                        + " %.1f CPU ns per event, over %d runs of %,d events%n",
                                query,
                                contender,
                                stats.median(),
                                stats.min(),
                                stats.max(),
                                Stats.of(cpu.get(contender)).median(),
                                stats.runs(),
                                events);
                    });
        }
    }

    private static void measure(String query, String contender, long events) throws Exception {
        SinkMeter meter = SinkMeter.arm(events, WARMUP);
        if (contender.equals("flink")) {
            NexmarkFlinkJobs.run(query, events, SIZE, SLIDE);
        } else {
            JobBuilder job =
                    query.equals("q1")
                            ? NexmarkQueries.q1("q1", source(events), Sinks.counting())
                            : NexmarkQueries.q5(
                                    "q5", source(events), Sinks.counting(), SIZE, SLIDE);
            try (RunningJob running = job.start(JobConfig.defaults())) {
                running.await();
            }
        }
        System.out.printf(
                Locale.ROOT,
                "RESULT %.1f %.1f%n",
                meter.measuredRecords() / meter.measuredSeconds(),
                meter.measuredCpuSeconds() * 1e9 / meter.measuredRecords());
        System.exit(0);
    }

    private static GeneratorSource<Event> source(long events) {
        return new GeneratorSource<>(null, NexmarkBench::event, events);
    }

    /** Events per second and CPU nanoseconds per event (this JVM's, all threads). */
    private static double[] fork(String query, String contender, long events)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(JVM.split(" ")));
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        NexmarkBench.class.getName(),
                        "run",
                        query,
                        contender,
                        Long.toString(events)));
        Path log = Files.createTempFile("flowscale-nexmark-", ".log");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(600, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    query + " on " + contender + " took over 600 s; use fewer --events");
        }
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("RESULT ")) {
                Files.delete(log);
                String[] fields = line.split(" ");
                return new double[] {Double.parseDouble(fields[1]), Double.parseDouble(fields[2])};
            }
        }
        throw new IllegalStateException(
                query + " on " + contender + " printed no result; log: " + log);
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException(
                        "expected an option, got '"
                                + args[i]
                                + "'; use --runs N, --events N, --queries q1,q5,"
                                + " --contenders flowscale,flink");
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
