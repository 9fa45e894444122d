package dev.flowscale.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 19's table, side by side in one run: flowscale (heap, RocksDB) and Apache Flink 2.3 in
 * local mode (MiniCluster; hashmap, RocksDB) with the same keyed job (one 1,000-byte value per key
 * in value state, overwritten by a steady stream), at each state size: checkpoint duration,
 * savepoint size, and the rescale downtime for p → p+1 (2 → 3) and p → 2p (3 → 6), each counted
 * from the stop request to the first record processed at the new parallelism. Every contender and
 * size runs in its own JVM (the two RocksDB libraries share a package, so each fork gets only its
 * own), contenders interleaved within each size.
 *
 * <p>Usage: {@code StateComparisonBenchmark [--xmx 6g] [--rate 100000] [--runs 1] [--contenders
 * a,b] MB ...} (default: all four contenders, 100 1000).
 */
public final class StateComparisonBenchmark {
    static final String[] CONTENDERS = {
        "flowscale-heap", "flink-hashmap", "flowscale-rocksdb", "flink-rocksdb"
    };

    private StateComparisonBenchmark() {}

    public static void main(String[] args) throws Exception {
        String xmx = "6g";
        long rate = 100_000;
        int runs = 1;
        String[] contenders = CONTENDERS;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--xmx" -> xmx = args[++i];
                case "--rate" -> rate = Long.parseLong(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--contenders" -> contenders = args[++i].split(",");
                default -> sizes.add(Integer.parseInt(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of(100, 1000));
        }
        System.out.printf(
                "%-18s %6s %4s %14s %16s %14s %14s %10s%n",
                "contender",
                "state",
                "run",
                "checkpoint ms",
                "savepoint bytes",
                "down 2->3 ms",
                "down 3->6 ms",
                "load");
        for (int mb : sizes) {
            for (int run = 1; run <= runs; run++) {
                for (String contender : contenders) {
                    String load = loadAverage();
                    Map<String, String> r;
                    try {
                        r = fork(contender, mb, rate, xmx);
                    } catch (IllegalStateException e) {
                        // One failed or stuck fork leaves its row out, not the whole run.
                        System.out.printf(
                                "%-18s %6s %4d failed: %s%n",
                                contender, mb + "MB", run, e.getMessage());
                        continue;
                    }
                    System.out.printf(
                            "%-18s %6s %4d %14s %16s %14s %14s %10s%n",
                            contender,
                            mb + "MB",
                            run,
                            r.get("checkpointMs"),
                            String.format("%,d", Long.parseLong(r.get("savepointBytes"))),
                            r.get("downP1Ms"),
                            r.get("down2PMs"),
                            load + "/" + loadAverage());
                }
            }
        }
    }

    private static Map<String, String> fork(String contender, int mb, long rate, String xmx)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + xmx);
        command.add("-cp");
        command.add(classPath(contender.startsWith("flink") ? "rocksdbjni" : "frocksdbjni"));
        command.add(StateComparisonRun.class.getName());
        command.add(contender);
        command.add(Integer.toString(mb));
        command.add(Long.toString(rate));
        Path log = Files.createTempFile("flowscale-state-bench-", ".log");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(15, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    contender + " at " + mb + " MB took over 15 minutes; log: " + log);
        }
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("RESULT ")) {
                Files.deleteIfExists(log);
                Map<String, String> fields = new LinkedHashMap<>();
                Arrays.stream(line.substring(7).split(" "))
                        .map(f -> f.split("=", 2))
                        .forEach(kv -> fields.put(kv[0], kv[1]));
                return fields;
            }
        }
        throw new IllegalStateException(
                contender + " at " + mb + " MB printed no result; log: " + log);
    }

    /** This JVM's class path without the jars whose name starts with {@code without}. */
    private static String classPath(String without) {
        List<String> kept = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!Path.of(entry).getFileName().toString().startsWith(without + "-")) {
                kept.add(entry);
            }
        }
        return String.join(File.pathSeparator, kept);
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }
}
