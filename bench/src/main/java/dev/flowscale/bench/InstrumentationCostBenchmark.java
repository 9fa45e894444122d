package dev.flowscale.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the instrumentation costs in CPU per record, with a confidence interval small enough to tell
 * 1 %: many rounds in one JVM, each running the job uninstrumented, instrumented, and instrumented
 * with every feature on (meters in a Prometheus registry, latency markers every 10 ms), in an order
 * that rotates from round to round. Each run is timed at its sink after a warm-up share of its
 * records, as {@link ThroughputBenchmark}'s runs are, by the Java threads' CPU time (the process's
 * less the garbage collector's, the JIT compilers' and the VM thread's: {@link JvmInternalCpu}).
 * The cost of a round is (on − off) / off of two of its runs, so drifting load, which moves the
 * runs of a round together, mostly cancels; the figure is the mean of the rounds' costs with a 95 %
 * bootstrap interval, and the median. A harness that prints figures, not a test.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" \
 *     dev.flowscale.bench.InstrumentationCostBenchmark [--rounds 30] [--warmup-rounds 3]
 *     [--workloads wordcount,mapfilter] [--wordcount-size 1000000] [--mapfilter-size 60000000]
 * </pre>
 *
 * <p>One JVM compiles the instrumented and the uninstrumented path alike, where a fresh JVM per run
 * compiles only the one it runs; the cost measured here is that of the instrumentation's work, not
 * of a JIT decision it may change (ThroughputBenchmark's paired figures show that).
 */
public final class InstrumentationCostBenchmark {
    private static final Contender[] ORDER = {
        Contender.FLOWSCALE_OFF, Contender.FLOWSCALE_ON, Contender.FLOWSCALE_MARKERS
    };
    private static final double WARMUP = 0.2;

    /** Below this many rounds a bootstrap interval says little; no verdict is printed. */
    private static final int MIN_ROUNDS = 10;

    private int rounds = 30;
    private int warmupRounds = 3;
    private List<Workload> workloads = List.of(Workload.WORDCOUNT, Workload.MAPFILTER);
    private final Map<Workload, Long> sizes =
            new EnumMap<>(Map.of(Workload.WORDCOUNT, 1_000_000L, Workload.MAPFILTER, 60_000_000L));

    private InstrumentationCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        InstrumentationCostBenchmark bench = new InstrumentationCostBenchmark();
        bench.parse(args);
        for (Workload workload : bench.workloads) {
            bench.measure(workload);
        }
        System.exit(0);
    }

    private void parse(String[] args) {
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--warmup-rounds" -> warmupRounds = Integer.parseInt(value);
                case "--workloads" -> workloads = Workload.parseList(value);
                case "--wordcount-size" -> sizes.put(Workload.WORDCOUNT, Long.parseLong(value));
                case "--mapfilter-size" -> sizes.put(Workload.MAPFILTER, Long.parseLong(value));
                default ->
                        throw new IllegalArgumentException(
                                "unknown option " + args[i] + "; see the javadoc for the options");
            }
        }
    }

    private void measure(Workload workload) throws Exception {
        long size = sizes.get(workload);
        for (int r = 0; r < warmupRounds; r++) {
            round(workload, size, r);
        }
        Map<Contender, List<Double>> cpu = new EnumMap<>(Contender.class);
        for (int r = 0; r < rounds; r++) {
            Map<Contender, Double> one = round(workload, size, r);
            one.forEach((c, v) -> cpu.computeIfAbsent(c, k -> new ArrayList<>()).add(v));
            System.out.printf(
                    Locale.ROOT,
                    "%s round %d: Java threads' CPU ns per unit off %.2f, on %.2f, every feature %.2f;"
                            + " load average %.2f%n",
                    workload,
                    r + 1,
                    one.get(Contender.FLOWSCALE_OFF),
                    one.get(Contender.FLOWSCALE_ON),
                    one.get(Contender.FLOWSCALE_MARKERS),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                            .getSystemLoadAverage());
        }
        List<Double> off = cpu.get(Contender.FLOWSCALE_OFF);
        report(workload, "instrumented", PairedCost.of(cpu.get(Contender.FLOWSCALE_ON), off));
        report(workload, "every feature", PairedCost.of(cpu.get(Contender.FLOWSCALE_MARKERS), off));
    }

    /** One run of each contender, the order rotated by the round's number. */
    private static Map<Contender, Double> round(Workload workload, long size, int round)
            throws Exception {
        Map<Contender, Double> cpu = new EnumMap<>(Contender.class);
        for (int i = 0; i < ORDER.length; i++) {
            Contender contender = ORDER[(i + round) % ORDER.length];
            cpu.put(contender, run(workload, size, contender));
        }
        return cpu;
    }

    /** The Java threads' CPU nanoseconds per unit over the run's steady part. */
    private static double run(Workload workload, long size, Contender contender) throws Exception {
        SinkMeter meter = SinkMeter.arm(workload.sinkRecords(size), WARMUP);
        switch (contender) {
            case FLOWSCALE_OFF -> FlowscaleJobs.run(workload, size, false);
            case FLOWSCALE_ON -> FlowscaleJobs.run(workload, size, true);
            case FLOWSCALE_MARKERS ->
                    FlowscaleJobs.runMetered(workload, size, Duration.ofMillis(10));
            default -> throw new IllegalArgumentException(contender + " is not measured here");
        }
        if (!meter.complete()) {
            throw new IllegalStateException(
                    "sink saw " + meter.count() + " of " + meter.expected() + " records");
        }
        double reported = meter.measuredRecords() * workload.reportedPerSinkRecord();
        return meter.measuredThreadCpuSeconds() * 1e9 / reported;
    }

    private static void report(Workload workload, String what, PairedCost cost) {
        System.out.printf(
                Locale.ROOT,
                "%s, %s against off, %d rounds: CPU per unit, median of rounds %s, mean %s; %s%n",
                workload,
                what,
                cost.rounds(),
                format(cost.median()),
                format(cost.mean()),
                cost.rounds() < MIN_ROUNDS
                        ? "too few rounds for an interval to mean anything"
                        : verdict(cost.median()));
    }

    private static String format(PairedCost.Estimate e) {
        return String.format(
                Locale.ROOT,
                "%+.2f %% (95 %% interval %+.2f to %+.2f %%)",
                e.value() * 100,
                e.low() * 100,
                e.high() * 100);
    }

    /** What the median's interval tells of the 1 % target. */
    private static String verdict(PairedCost.Estimate median) {
        if (median.high() <= 0.01) {
            return "at most 1 %";
        }
        return median.low() > 0.01 ? "above 1 %" : "the interval does not tell 1 %";
    }
}
