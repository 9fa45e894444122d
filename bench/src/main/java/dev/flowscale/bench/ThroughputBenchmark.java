package dev.flowscale.bench;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Throughput of the flowscale engine (instrumented and not) side by side with Flink in local mode.
 * Every run is a fresh JVM with the same flags; contenders are interleaved (A B C A B C ...) so
 * that drifting machine load hits all of them alike; each run is timed at its sink after a warm-up
 * share of its records. Before each run the harness waits (boundedly) until other processes use at
 * most {@code --quiet-cores} CPU cores, and after it reports how much CPU they took meanwhile.
 * Prints per-run figures and a Markdown summary.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" dev.flowscale.bench.ThroughputBenchmark \
 *     [--runs 5] [--workloads wordcount,mapfilter] [--contenders flowscale_on,flowscale_off,flink,fused]
 *     [--wordcount-size SENTENCES] [--mapfilter-size RECORDS]
 *     [--warmup 0.2] [--jvm "-Xms2g -Xmx2g -XX:+UseG1GC -XX:+AlwaysPreTouch"] [--timeout-seconds 300]
 *     [--quiet-cores 0.25] [--quiet-wait-seconds 90]
 * </pre>
 */
public final class ThroughputBenchmark {
    static final String DEFAULT_JVM = "-Xms2g -Xmx2g -XX:+UseG1GC -XX:+AlwaysPreTouch";

    private int runs = 5;
    private List<Workload> workloads = List.of(Workload.WORDCOUNT, Workload.MAPFILTER);
    private List<Contender> contenders = List.of(Contender.values());
    private final Map<Workload, Long> sizes = new EnumMap<>(Workload.class);
    private double warmup = 0.2;
    private List<String> jvm = split(DEFAULT_JVM);
    private long timeoutSeconds = 300;
    private double quietCores = 0.25;
    private long quietWaitSeconds = 90;
    private final StringBuilder summary = new StringBuilder();

    private ThroughputBenchmark() {
        for (Workload w : Workload.values()) {
            sizes.put(w, w.defaultSize());
        }
    }

    public static void main(String[] args) throws Exception {
        ThroughputBenchmark bench = new ThroughputBenchmark();
        bench.parse(args);
        bench.runAll();
    }

    private void parse(String[] args) {
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(value);
                case "--workloads" -> workloads = Workload.parseList(value);
                case "--contenders" ->
                        contenders =
                                Arrays.stream(value.split(","))
                                        .map(
                                                s ->
                                                        Contender.valueOf(
                                                                s.trim().toUpperCase(Locale.ROOT)))
                                        .toList();
                case "--wordcount-size" -> sizes.put(Workload.WORDCOUNT, Long.parseLong(value));
                case "--mapfilter-size" -> sizes.put(Workload.MAPFILTER, Long.parseLong(value));
                case "--warmup" -> warmup = Double.parseDouble(value);
                case "--jvm" -> jvm = split(value);
                case "--timeout-seconds" -> timeoutSeconds = Long.parseLong(value);
                case "--quiet-cores" -> quietCores = Double.parseDouble(value);
                case "--quiet-wait-seconds" -> quietWaitSeconds = Long.parseLong(value);
                default ->
                        throw new IllegalArgumentException(
                                "unknown option "
                                        + args[i]
                                        + "; see the ThroughputBenchmark javadoc for the options");
            }
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "option " + args[args.length - 1] + " lacks a value");
        }
    }

    private void runAll() throws Exception {
        System.out.printf(
                "flowscale throughput benchmark, %s%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS));
        System.out.printf(
                "JVM: %s %s (%s); %d CPUs; forked JVM flags: %s%n",
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"),
                Runtime.getRuntime().availableProcessors(),
                String.join(" ", jvm));
        System.out.printf(
                "runs per contender: %d, interleaved; timed after the first %.0f %% of sink records%n",
                runs, warmup * 100);
        for (Workload workload : workloads) {
            measure(workload);
        }
        System.out.println();
        System.out.println(summary);
    }

    private void measure(Workload workload) throws Exception {
        long size = sizes.get(workload);
        System.out.printf("%n== %s, size %,d, load average before %.2f%n", workload, size, load());
        Map<Contender, List<Double>> rates = new EnumMap<>(Contender.class);
        Map<Contender, List<Double>> foreign = new EnumMap<>(Contender.class);
        Map<Contender, List<Double>> cpu = new EnumMap<>(Contender.class);
        Map<Contender, List<Double>> threadCpu = new EnumMap<>(Contender.class);
        for (int round = 1; round <= runs; round++) {
            for (Contender contender : contenders) {
                double busyBefore = MachineLoad.awaitQuiet(quietCores, quietWaitSeconds);
                ForkedRun.Result r =
                        ForkedRun.run(jvm, workload, contender, size, warmup, timeoutSeconds);
                rates.computeIfAbsent(contender, c -> new ArrayList<>()).add(r.rate());
                foreign.computeIfAbsent(contender, c -> new ArrayList<>()).add(r.foreignCores());
                cpu.computeIfAbsent(contender, c -> new ArrayList<>()).add(r.cpuNanosPerUnit());
                threadCpu
                        .computeIfAbsent(contender, c -> new ArrayList<>())
                        .add(r.threadCpuNanosPerUnit());
                System.out.printf(
                        Locale.ROOT,
                        "run %d %-32s %,14.0f %s  %.1f CPU ns each, %.1f in Java threads"
                                + "  (timed %.2f s of %.2f s;"
                                + " other processes: %.2f cores before, %.2f during; load avg %.2f)%n",
                        round,
                        contender.label(),
                        r.rate(),
                        workload.unit(),
                        r.cpuNanosPerUnit(),
                        r.threadCpuNanosPerUnit(),
                        r.measuredSeconds(),
                        r.totalSeconds(),
                        busyBefore,
                        r.foreignCores(),
                        load());
            }
        }
        System.out.printf("load average after %.2f%n", load());
        summarise(workload, size, rates, foreign, cpu);
        summariseThreadCpu(threadCpu);
    }

    private void summarise(
            Workload workload,
            long size,
            Map<Contender, List<Double>> rates,
            Map<Contender, List<Double>> foreign,
            Map<Contender, List<Double>> cpu) {
        Map<Contender, Stats> stats = new EnumMap<>(Contender.class);
        rates.forEach((c, v) -> stats.put(c, Stats.of(v)));
        summary.append(
                String.format(
                        Locale.ROOT, "### %s (size %,d), %s%n%n", workload, size, workload.unit()));
        summary.append(
                "| contender | median | min – max | runs | CPU ns per unit, median (min – max) |"
                        + " CPU of other processes, median (max) |\n|---|---:|---:|---:|---:|---:|\n");
        stats.forEach(
                (c, s) -> {
                    Stats cpuStats = Stats.of(cpu.get(c));
                    Stats other = Stats.of(foreign.get(c));
                    summary.append(
                            String.format(
                                    Locale.ROOT,
                                    "| %s | %s | %s – %s | %d | %.1f (%.1f – %.1f) |"
                                            + " %.2f (%.2f) cores |%n",
                                    c.label(),
                                    millions(s.median()),
                                    millions(s.min()),
                                    millions(s.max()),
                                    s.runs(),
                                    cpuStats.median(),
                                    cpuStats.min(),
                                    cpuStats.max(),
                                    other.median(),
                                    other.max()));
                });
        Stats on = stats.get(Contender.FLOWSCALE_ON);
        Stats off = stats.get(Contender.FLOWSCALE_OFF);
        Stats flink = stats.get(Contender.FLINK);
        summary.append('\n');
        if (on != null && stats.containsKey(Contender.FUSED)) {
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "flowscale instrumented / fused loop, CPU ns per unit (medians): %.2f×%n",
                            Stats.of(cpu.get(Contender.FLOWSCALE_ON)).median()
                                    / Stats.of(cpu.get(Contender.FUSED)).median()));
        }
        if (flink != null && on != null) {
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "flowscale instrumented / Flink: %.2f×%n",
                            on.median() / flink.median()));
        }
        if (flink != null && off != null) {
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "flowscale instrumentation off / Flink: %.2f×%n",
                            off.median() / flink.median()));
        }
        if (on != null && off != null) {
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "instrumentation overhead (off − on) / off of the medians: %.1f %%; "
                                    + "median of the per-round paired overheads: %.1f %%%n",
                            (off.median() - on.median()) / off.median() * 100,
                            pairedOverhead(rates) * 100));
            double cpuOn = Stats.of(cpu.get(Contender.FLOWSCALE_ON)).median();
            double cpuOff = Stats.of(cpu.get(Contender.FLOWSCALE_OFF)).median();
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "instrumentation CPU cost (on − off) / off, CPU ns per unit:"
                                    + " %.1f %% of the medians; median of the per-round paired figures: %.1f %%%n",
                            (cpuOn - cpuOff) / cpuOff * 100,
                            -pairedOverhead(cpu) * 100));
        }
        summary.append('\n');
    }

    /**
     * CPU per unit of the Java threads alone (no JIT compiler, no garbage collector): the record
     * path's own cost, and the instrumentation's share of it from the per-round pairs.
     */
    private void summariseThreadCpu(Map<Contender, List<Double>> threadCpu) {
        threadCpu.forEach(
                (c, v) -> {
                    Stats s = Stats.of(v);
                    summary.append(
                            String.format(
                                    Locale.ROOT,
                                    "Java threads' CPU ns per unit, %s: %.1f (%.1f – %.1f)%n",
                                    c.label(),
                                    s.median(),
                                    s.min(),
                                    s.max()));
                });
        if (threadCpu.containsKey(Contender.FLOWSCALE_ON)
                && threadCpu.containsKey(Contender.FUSED)) {
            // The JIT compilers still work on the engine's record path after the warm-up share
            // (tens of ns per word), while the fused loop's few methods are long compiled: the
            // ratio without them is the record path's own.
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "flowscale instrumented / fused loop, Java threads' CPU ns per unit"
                                    + " (medians): %.2f×%n",
                            Stats.of(threadCpu.get(Contender.FLOWSCALE_ON)).median()
                                    / Stats.of(threadCpu.get(Contender.FUSED)).median()));
        }
        if (threadCpu.containsKey(Contender.FLOWSCALE_ON)
                && threadCpu.containsKey(Contender.FLOWSCALE_OFF)) {
            summary.append(
                    String.format(
                            Locale.ROOT,
                            "instrumentation cost in Java threads' CPU per unit, median of the"
                                    + " per-round paired figures: %.1f %%%n",
                            -pairedOverhead(threadCpu) * 100));
        }
        summary.append('\n');
    }

    /** Median over rounds of (off − on) / off, each from the two runs of the same round. */
    private static double pairedOverhead(Map<Contender, List<Double>> rates) {
        List<Double> on = rates.get(Contender.FLOWSCALE_ON);
        List<Double> off = rates.get(Contender.FLOWSCALE_OFF);
        List<Double> paired = new ArrayList<>();
        for (int i = 0; i < Math.min(on.size(), off.size()); i++) {
            paired.add((off.get(i) - on.get(i)) / off.get(i));
        }
        return Stats.of(paired).median();
    }

    private static String millions(double rate) {
        return String.format(Locale.ROOT, "%.2f M", rate / 1e6);
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static List<String> split(String flags) {
        return Arrays.stream(flags.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }
}
