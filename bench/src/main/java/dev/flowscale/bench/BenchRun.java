package dev.flowscale.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * One measured run in its own JVM: {@code BenchRun <workload> <contender> <size> <warmupFraction>}.
 * Prints one line {@code RESULT rate=<per second> measured=<records> seconds=<s> total=<s> cpu=<s>
 * cpuPerUnit=<ns> threadCpuPerUnit=<ns>} on success: rate counts the workload's reported unit over
 * the steady part of the run, cpu is this JVM's CPU time (all threads), cpuPerUnit the CPU
 * nanoseconds per reported unit over the steady part, threadCpuPerUnit the same for the Java
 * threads alone (no JIT compiler, no garbage collector). Then one line {@code THREAD <name>#<id>
 * cpuPerUnit=<ns>} for each Java thread alive at the end that used at least 0.1 % of their CPU time
 * in between, and {@code THREAD GC|JIT|VM cpuPerUnit=<ns>} for the JVM's own threads.
 */
public final class BenchRun {
    private BenchRun() {}

    public static void main(String[] args) throws Exception {
        Workload workload = Workload.valueOf(args[0]);
        Contender contender = Contender.valueOf(args[1]);
        long size = Long.parseLong(args[2]);
        double warmupFraction = Double.parseDouble(args[3]);
        SinkMeter meter = SinkMeter.arm(workload.sinkRecords(size), warmupFraction);
        long start = System.nanoTime();
        switch (contender) {
            case FLOWSCALE_ON -> FlowscaleJobs.run(workload, size, true);
            case FLOWSCALE_OFF -> FlowscaleJobs.run(workload, size, false);
            case FLOWSCALE_METERED -> FlowscaleJobs.runMetered(workload, size, Duration.ZERO);
            case FLOWSCALE_MARKERS ->
                    FlowscaleJobs.runMetered(workload, size, Duration.ofMillis(10));
            case FLINK -> FlinkJobs.run(workload, size);
            case FUSED -> FusedLoop.run(workload, size);
        }
        double total = (System.nanoTime() - start) / 1e9;
        if (!meter.complete()) {
            System.out.println(
                    "FAILED sink saw " + meter.count() + " of " + meter.expected() + " records");
            System.exit(2);
        }
        double reported = meter.measuredRecords() * workload.reportedPerSinkRecord();
        System.out.printf(
                Locale.ROOT,
                "RESULT rate=%.1f measured=%.0f seconds=%.3f total=%.3f cpu=%.3f"
                        + " cpuPerUnit=%.3f threadCpuPerUnit=%.3f%n",
                reported / meter.measuredSeconds(),
                reported,
                meter.measuredSeconds(),
                total,
                cpuSeconds(),
                meter.measuredCpuSeconds() * 1e9 / reported,
                meter.measuredThreadCpuSeconds() * 1e9 / reported);
        meter.measuredThreadCpuNanos()
                .forEach(
                        (thread, nanos) -> {
                            if (nanos * 1000 >= meter.measuredThreadCpuSeconds() * 1e9) {
                                System.out.printf(
                                        Locale.ROOT,
                                        "THREAD %s cpuPerUnit=%.3f%n",
                                        thread,
                                        nanos / reported);
                            }
                        });
        meter.measuredInternalCpuNanos()
                .forEach(
                        (group, nanos) ->
                                System.out.printf(
                                        Locale.ROOT,
                                        "THREAD %s cpuPerUnit=%.3f%n",
                                        group,
                                        nanos / reported));
        System.exit(0);
    }

    /** CPU time of this JVM so far (all threads), or NaN if the JVM cannot tell. */
    private static double cpuSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }
}
