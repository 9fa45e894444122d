package dev.flowscale.bench;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.RescaleView;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The downtime of a rescale of keyed state (1,000-byte values, as {@link SavepointBenchmark}) taken
 * the two ways the operator can: in place, inside the running runner process ({@link
 * RunningJob#rescale}, what {@code POST /api/v1/rescale} runs), and by restarting the runner
 * process: stop with a savepoint, then a fresh JVM restores from it at the new parallelism ({@link
 * RestoreProbe}). Both count from the stop request until the restored job runs; the restart path
 * leaves out what a pod replacement adds on Kubernetes (scheduling, volume attach, image pull).
 * Usage: {@code RescaleDowntimeBenchmark [--runs N] [MB ...]}, default 3 runs of 1 and 100.
 */
public final class RescaleDowntimeBenchmark {
    private RescaleDowntimeBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = 3;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else {
                sizes.add(Integer.parseInt(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1, 100);
        }
        System.out.printf(
                "%-8s %4s %16s %20s%n", "state", "run", "in-place ms", "process restart ms");
        for (int mb : sizes) {
            for (int run = 1; run <= runs; run++) {
                System.out.printf(
                        "%-8s %4d %16d %20d%n",
                        mb + " MB", run, inPlace(mb).toMillis(), processRestart(mb).toMillis());
            }
        }
    }

    private static long keys(int megabytes) {
        return (long) megabytes * 1_000_000 / 1000;
    }

    private static Duration inPlace(int megabytes) throws Exception {
        Path storage = Files.createTempDirectory("flowscale-rescale-bench");
        try (RunningJob job =
                RunningJob.start(SavepointBenchmark.graph(keys(megabytes), 2), config(storage))) {
            SavepointBenchmark.awaitProcessed(job, keys(megabytes));
            RescaleView result = job.rescale(Map.of("store", 3), Duration.ofMinutes(10));
            return result.downtime();
        } finally {
            SavepointBenchmark.delete(storage);
        }
    }

    private static Duration processRestart(int megabytes) throws Exception {
        Path storage = Files.createTempDirectory("flowscale-rescale-bench");
        try (RunningJob job =
                RunningJob.start(SavepointBenchmark.graph(keys(megabytes), 2), config(storage))) {
            SavepointBenchmark.awaitProcessed(job, keys(megabytes));
            long stopped = System.nanoTime();
            Path savepoint = job.stopWithSavepoint(Duration.ofMinutes(10));
            RestoreProbe.runForked(keys(megabytes), storage, savepoint);
            return Duration.ofNanos(System.nanoTime() - stopped);
        } finally {
            SavepointBenchmark.delete(storage);
        }
    }

    static JobConfig config(Path storage) {
        return JobConfig.defaults().withCheckpointing(CheckpointConfig.savepointsOnly(storage));
    }

    /**
     * The restarted runner: restores at parallelism 3 from a savepoint, prints RUNNING once it
     * runs, exits.
     */
    public static final class RestoreProbe {
        private RestoreProbe() {}

        public static void main(String[] args) throws Exception {
            JobGraph graph =
                    SavepointBenchmark.graph(Long.parseLong(args[0]), 2)
                            .withParallelism(Map.of("store", 3));
            try (RunningJob job =
                    RunningJob.start(graph, config(Path.of(args[1])), Path.of(args[2]))) {
                job.awaitRunning(Duration.ofMinutes(10));
                System.out.println("RUNNING");
                System.out.flush();
                job.cancel();
            }
            System.exit(0);
        }

        /**
         * Starts the probe in a fresh JVM (same flags class path) and waits until it prints
         * RUNNING.
         */
        static void runForked(long keys, Path storage, Path savepoint)
                throws IOException, InterruptedException {
            List<String> command =
                    new ArrayList<>(
                            Arrays.asList(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx2g",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    RestoreProbe.class.getName(),
                                    Long.toString(keys),
                                    storage.toString(),
                                    savepoint.toString()));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(
                                    process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null && !line.equals("RUNNING")) {
                    System.err.println("probe: " + line);
                }
                if (line == null) {
                    throw new IllegalStateException(
                            "the restore probe exited before it ran: " + process.waitFor());
                }
            } finally {
                process.waitFor(60, TimeUnit.SECONDS);
                process.destroyForcibly();
            }
        }
    }
}
