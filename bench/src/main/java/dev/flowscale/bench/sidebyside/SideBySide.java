package dev.flowscale.bench.sidebyside;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.bench.MachineLoad;
import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * flowscale against flink-autoscaler-standalone on the same Flink job: each contestant gets a fresh
 * {@link LocalFlinkCluster} (Flink 2.3 MiniCluster, adaptive scheduler, 16 slots) running the word
 * count at 1/1/1 under a load above one instance's capacity, and autoscales it from its own process
 * through the cluster's REST API. Contestants run one after the other, so one's load does not slow
 * another ({@code --together true}: all at once, sharing the machine); each row says how many of
 * the machine's cores were busy during that run. Flink's defaults collect a 15-minute window after
 * a 5-minute stabilization, so {@code --defaults-minutes} gives that contestant a longer run; its
 * figures are then also shown cut at {@code --minutes}.
 *
 * <p>Run: {@code java -cp "bench/target/classes:$(cat bench/target/bench.classpath)"
 * dev.flowscale.bench.sidebyside.SideBySide --minutes 12 --defaults-minutes 25 --flowscale-jar
 * cli/target/flowscale.jar --flink-autoscaler-classpath "/tmp/fas/target/fas-1.jar:/tmp/fas/lib/*"}
 */
public final class SideBySide {
    static final SideBySideLoad LOAD = new SideBySideLoad(300, 8_000, 3_000);
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);

    /** The command line's options. */
    record Options(
            double minutes,
            double defaultsMinutes,
            boolean together,
            Path flowscaleJar,
            String flinkAutoscalerClasspath,
            List<Contestant> contestants) {
        double minutes(Contestant c) {
            return c == Contestant.FLINK_DEFAULTS ? defaultsMinutes : minutes;
        }

        static Options parse(String[] args) {
            Map<String, String> given = new LinkedHashMap<>();
            for (int i = 0; i + 1 < args.length; i += 2) {
                given.put(args[i], args[i + 1]);
            }
            String contestants =
                    given.getOrDefault("--contestants", "FLOWSCALE,FLINK_FAST,FLINK_DEFAULTS");
            String minutes = given.getOrDefault("--minutes", "10");
            return new Options(
                    Double.parseDouble(minutes),
                    Double.parseDouble(given.getOrDefault("--defaults-minutes", minutes)),
                    Boolean.parseBoolean(given.getOrDefault("--together", "false")),
                    Path.of(required(given, "--flowscale-jar")),
                    required(given, "--flink-autoscaler-classpath"),
                    List.of(contestants.split(",")).stream().map(Contestant::valueOf).toList());
        }

        private static String required(Map<String, String> given, String name) {
            String value = given.get(name);
            if (value == null) {
                throw new IllegalArgumentException(
                        name + " is required; see SideBySide's javadoc for the command");
            }
            return value;
        }
    }

    private SideBySide() {}

    /** One contestant's trace, and how many cores the whole machine kept busy meanwhile. */
    record Result(Contestant contestant, Trace trace, double busyCores) {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Path logs = Files.createTempDirectory("side-by-side-");
        System.out.printf(
                Locale.ROOT,
                "load %.0f sentences/s, Split %d us, Count %d us per record; optimum 1/%d/%d;"
                        + " %.1f min per contestant (Flink defaults %.1f), %s; %d cores;"
                        + " logs in %s%n",
                LOAD.sentencesPerSecond(),
                LOAD.splitMicros(),
                LOAD.countMicros(),
                LOAD.optimum().get("Split"),
                LOAD.optimum().get("Count"),
                options.minutes(),
                options.defaultsMinutes(),
                options.together() ? "all at once" : "one after the other",
                Runtime.getRuntime().availableProcessors(),
                logs);
        ExecutorService pool =
                options.together()
                        ? Executors.newCachedThreadPool()
                        : Executors.newSingleThreadExecutor();
        List<Future<Result>> results = new ArrayList<>();
        for (Contestant c : options.contestants()) {
            results.add(pool.submit(() -> run(c, options, logs)));
        }
        System.out.println(
                "| autoscaler | minutes | machine busy cores | rescales | configurations"
                        + " | time to sustaining | over-provisioned instance-min | max backlog"
                        + " | final backlog |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (Future<Result> f : results) {
            Result r = f.get();
            double minutes = options.minutes(r.contestant());
            print(r, minutes, r.trace());
            if (minutes > options.minutes()) {
                print(r, options.minutes(), r.trace().until(options.minutes() * 60));
            }
        }
        pool.shutdown();
        System.exit(0);
    }

    private static void print(Result r, double minutes, Trace t) {
        System.out.printf(
                Locale.ROOT,
                "| %s | %.0f | %.1f | %d | %s | %s | %.1f | %.0f s | %.1f s |%n",
                r.contestant().label,
                minutes,
                r.busyCores(),
                t.rescales(),
                t.path(),
                Double.isNaN(t.secondsToSustaining())
                        ? "never"
                        : String.format(Locale.ROOT, "%.0f s", t.secondsToSustaining()),
                t.overProvisionedInstanceMinutes(),
                t.maxBacklogSeconds(),
                t.finalBacklogSeconds());
    }

    private static Result run(Contestant contestant, Options options, Path logs) throws Exception {
        Duration length = Duration.ofMillis(Math.round(options.minutes(contestant) * 60_000));
        try (LocalFlinkCluster cluster = LocalFlinkCluster.start(16, true)) {
            String tag = contestant.name().toLowerCase(Locale.ROOT);
            long epoch = System.currentTimeMillis();
            String jobId = cluster.submit(LOAD.settings(tag, epoch, length.toSeconds() + 120));
            awaitRunning(new FlinkRestClient(cluster.rest(), Duration.ofSeconds(10)), jobId);
            Path log = logs.resolve(tag + ".log");
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process process =
                    new ProcessBuilder(
                                    contestant.command(
                                            java, options, cluster.rest(), jobId, length))
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            MachineLoad.Sample before = MachineLoad.sample();
            long start = System.nanoTime();
            try {
                Trace trace =
                        sample(
                                new FlinkRestClient(cluster.rest(), Duration.ofSeconds(10)),
                                jobId,
                                tag,
                                epoch,
                                length);
                MachineLoad.Sample after = MachineLoad.sample();
                double busy =
                        before == null || after == null
                                ? Double.NaN
                                : after.busyCoresSince(before, (System.nanoTime() - start) / 1e9);
                return new Result(contestant, trace, busy);
            } finally {
                process.destroy();
                process.waitFor();
            }
        }
    }

    /**
     * Waits until every subtask of the job runs: a contestant attached to a job still CREATED on a
     * loaded machine is refused ({@code attach} refuses a job that is not RUNNING), and each
     * contestant should start from the same point.
     */
    private static void awaitRunning(FlinkRestClient rest, String jobId)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!running(rest, jobId)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Flink job " + jobId + " did not run all its subtasks within 2 minutes");
            }
            Thread.sleep(200); // a polling period
        }
    }

    private static boolean running(FlinkRestClient rest, String jobId) {
        try {
            return FlinkJob.read(rest, jobId).allVerticesRunning();
        } catch (FlinkConnectorException e) {
            return false; // INITIALIZING: no vertices yet
        }
    }

    private static Trace sample(
            FlinkRestClient rest, String jobId, String tag, long epoch, Duration length)
            throws InterruptedException {
        Trace trace = new Trace(LOAD);
        long start = System.nanoTime();
        for (long next = start; next - start <= length.toNanos(); next += SAMPLE_EVERY.toNanos()) {
            Thread.sleep(
                    Math.max(
                            0,
                            (next - System.nanoTime())
                                    / 1_000_000)); // a sampling period, not a wait
            double due = LOAD.wordsPerSecond() * (System.currentTimeMillis() - epoch) / 1000.0;
            double counted =
                    FlinkWordCount.counts(tag).values().stream().mapToLong(Long::longValue).sum();
            trace.add(
                    new Trace.Point(
                            (System.nanoTime() - start) / 1e9,
                            parallelism(rest, jobId),
                            Math.max(0, due - counted)));
        }
        return trace;
    }

    /** Parallelism by operator, or null while the job is not running. */
    private static Map<String, Integer> parallelism(FlinkRestClient rest, String jobId) {
        try {
            JsonNode job = rest.get("jobs/" + jobId);
            if (!"RUNNING".equals(job.path("state").asText())) {
                return null;
            }
            Map<String, Integer> parallelism = new LinkedHashMap<>();
            for (JsonNode v : job.path("vertices")) {
                String name = v.path("name").asText();
                String op =
                        name.contains("Sentences")
                                ? "Sentences"
                                : name.startsWith("Split") ? "Split" : "Count";
                parallelism.put(op, v.path("parallelism").asInt());
            }
            return parallelism;
        } catch (RuntimeException e) {
            return null; // REST does not answer during a restart
        }
    }
}
