package dev.flowscale.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts {@link BenchRun} in a fresh JVM with the given flags and reads its result line. */
final class ForkedRun {
    private ForkedRun() {}

    /**
     * The measured result of one run; {@code foreignCores} is the CPU that other processes used
     * meanwhile, in cores (machine busy time minus the run's own CPU time, over wall time); {@code
     * threadCpuNanosPerUnit} counts the Java threads' CPU time only.
     */
    record Result(
            double rate,
            double measuredSeconds,
            double totalSeconds,
            double foreignCores,
            double cpuNanosPerUnit,
            double threadCpuNanosPerUnit) {}

    static Result run(
            List<String> jvmFlags,
            Workload workload,
            Contender contender,
            long size,
            double warmupFraction,
            long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BenchRun.class.getName());
        command.add(workload.name());
        command.add(contender.name());
        command.add(Long.toString(size));
        command.add(Double.toString(warmupFraction));
        Path log = Files.createTempFile("flowscale-bench-", ".log");
        MachineLoad.Sample before = MachineLoad.sample();
        long start = System.nanoTime();
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    workload
                            + " on "
                            + contender
                            + " took over "
                            + timeoutSeconds
                            + " s; lower the size (--"
                            + workload.name().toLowerCase()
                            + "-size); log: "
                            + log);
        }
        double wall = (System.nanoTime() - start) / 1e9;
        MachineLoad.Sample after = MachineLoad.sample();
        Printed printed =
                parse(Files.readAllLines(log, StandardCharsets.UTF_8), workload, contender, log);
        double foreign =
                before == null || after == null
                        ? Double.NaN
                        : Math.max(
                                0,
                                after.busyCoresSince(before, wall) - printed.cpuSeconds() / wall);
        return new Result(
                printed.rate(),
                printed.measuredSeconds(),
                printed.totalSeconds(),
                foreign,
                printed.cpuNanosPerUnit(),
                printed.threadCpuNanosPerUnit());
    }

    /** What the forked run printed. */
    private record Printed(
            double rate,
            double measuredSeconds,
            double totalSeconds,
            double cpuSeconds,
            double cpuNanosPerUnit,
            double threadCpuNanosPerUnit) {}

    private static Printed parse(
            List<String> lines, Workload workload, Contender contender, Path log)
            throws IOException {
        for (String line : lines) {
            if (line.startsWith("RESULT ")) {
                Files.deleteIfExists(log);
                return new Printed(
                        field(line, "rate"),
                        field(line, "seconds"),
                        field(line, "total"),
                        field(line, "cpu"),
                        field(line, "cpuPerUnit"),
                        field(line, "threadCpuPerUnit"));
            }
        }
        throw new IllegalStateException(
                workload
                        + " on "
                        + contender
                        + " printed no result; log: "
                        + log
                        + "\n"
                        + String.join(
                                "\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
    }

    private static double field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return Double.parseDouble(part.substring(name.length() + 1));
            }
        }
        throw new IllegalStateException("result line lacks " + name + ": " + line);
    }
}
