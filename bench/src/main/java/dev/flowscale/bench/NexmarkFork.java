package dev.flowscale.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one Nexmark query on one engine in a fresh JVM and reads its result line. */
final class NexmarkFork {
    private static final String JVM = "-Xms2g -Xmx2g -XX:+UseG1GC";
    private static final long TIMEOUT_SECONDS = 600;

    private NexmarkFork() {}

    /** Events per second and CPU nanoseconds per event (the forked JVM's, all threads). */
    static double[] run(String query, String contender, int parallelism, long events)
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
                        Integer.toString(parallelism),
                        Long.toString(events)));
        String run = query + " on " + contender + " at parallelism " + parallelism;
        Path log = Files.createTempFile("flowscale-nexmark-", ".log");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    run + " took over " + TIMEOUT_SECONDS + " s; use fewer --events");
        }
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("RESULT ")) {
                Files.delete(log);
                String[] fields = line.split(" ");
                return new double[] {Double.parseDouble(fields[1]), Double.parseDouble(fields[2])};
            }
        }
        throw new IllegalStateException(run + " printed no result; log: " + log);
    }
}
