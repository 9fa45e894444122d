package dev.flowscale.cli;

import dev.flowscale.engine.cli.CliOptions;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.reconfig.InProcessScalingRealizer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code flowscale run <job>} runs a job on the embedded engine with the DS2 autoscaler live;
 * {@code flowscale demo} runs a scripted scenario that shows a scale-up and a scale-down.
 */
public final class FlowscaleMain {
    static final String USAGE = """
            usage: flowscale run <job> [options]     built-in jobs: wordcount, chain
                   flowscale demo [options]          word count whose source rate steps up, then down (~2 min)
                   flowscale jobs                    list the built-in jobs
            job:
              --rate SPEC               source rate: 1000 (default), max, steps:0s=200,40s=600,
                                        sine:base=1000,amplitude=500,period=60s, trace:/path/file.csv
              --parallelism OP=P,...    initial parallelism per operator (default 1)
              --cost OP=COST,...        synthetic per-record cost (cpu:200us, sleep:1ms, none)
              --words-per-sentence N    wordcount: words per sentence (default 10)
              --vocabulary N            wordcount: distinct words (default 10000)
              --stages N                chain: number of map operators (default 3)
              --stage-cost COST         chain: cost of every map (default cpu:20us)
              --limit N                 stop the source after N records (default: endless)
              --key-groups N            max parallelism = number of key groups (default 128)
            autoscaler:
              --mode auto|recommend     auto rescales (default); recommend only reports decisions
              --policy-interval D       time between decisions (default 10s)
              --window D                metrics window of a decision (default: the policy interval)
              --warm-up D               ignore samples this soon after a (re)start (default 3s)
              --target-utilization U    plan for this share of each instance's capacity (0.1..1, default 1.0)
              --min-parallelism N       lower bound for every operator (default 1)
              --max-parallelism N       upper bound for every operator (default 32)
              --catch-up D              drain the source backlog within D (default 60s; 0 turns it off)
              --scale-down-delay D      recommend a scale-down this long before applying it (default 20s)
              --dead-band F             no rescale if every change is within this fraction (default 0)
              --noise-tolerance F    a DS2 ratio at most this fraction above a whole number rounds down
                                        (measured rates are noisy; default 0.02)
              --emulated-restart D      emulate the cost of a pod restart: keep the job down this much longer
                                        at each rescale (0s..10m, default 0s; a cluster's rescale costs 30-60s)
            output:
              --duration D              stop after D (default: until Ctrl-C)
              --print-interval D        how often to print operator rates (default 5s)
              --report FILE.html        write a self-contained HTML report with charts at the end
              --metrics-port N          serve Prometheus metrics on http://0.0.0.0:N/metrics
              --savepoint-dir DIR       where rescale savepoints go (default ./flowscale-data)
              --help                    this text
            """;
    static final Set<String> RUN_OPTIONS = Set.of("mode", "policy-interval", "window", "warm-up", "target-utilization",
            "min-parallelism", "max-parallelism", "catch-up", "scale-down-delay", "dead-band", "noise-tolerance", "emulated-restart",
            "duration",
            "print-interval", "report", "metrics-port", "savepoint-dir");

    private FlowscaleMain() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        try {
            return switch (args.get(0)) {
                case "run" -> runJob(args.subList(1, args.size()), out);
                case "demo" -> runJob(Demo.arguments(args.subList(1, args.size())), out);
                case "jobs" -> {
                    JobCatalog.JOBS.forEach((name, shape) -> out.printf("%-10s %s%n", name, shape));
                    yield 0;
                }
                default -> throw new CliException("unknown command '" + args.get(0) + "'; use run, demo or jobs");
            };
        } catch (CliException | dev.flowscale.engine.api.InvalidJobException e) {
            err.println("error: " + e.getMessage());
            err.print(USAGE);
            return 2;
        } catch (EngineException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (Exception e) {
            err.println("error: " + e);
            return 1;
        }
    }

    private static int runJob(List<String> args, PrintStream out) throws Exception {
        if (args.isEmpty() || args.get(0).startsWith("--")) {
            throw new CliException("run needs a job name; built-in jobs are " + JobCatalog.JOBS.keySet());
        }
        Set<String> valued = new HashSet<>(JobCatalog.OPTIONS);
        valued.addAll(RUN_OPTIONS);
        CliOptions options = CliOptions.parse(args.subList(1, args.size()), valued, Set.of());
        JobGraph graph = JobCatalog.build(args.get(0), options);
        AutoscalerSettings settings = settings(options);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsHttpServer server = options.has("metrics-port")
                ? MetricsHttpServer.start("0.0.0.0", options.integer("metrics-port", 0, 0), registry) : null) {
            if (server != null) {
                out.println("metrics: http://localhost:" + server.port() + "/metrics");
            }
            return new Session(graph, settings, registry, options, out).run();
        }
    }

    static AutoscalerSettings settings(CliOptions options) {
        String mode = options.text("mode", "auto");
        if (!mode.equals("auto") && !mode.equals("recommend")) {
            throw new CliException("option --mode '" + mode + "' is not auto or recommend");
        }
        Duration interval = positive(options, "policy-interval", Duration.ofSeconds(10));
        int min = options.integer("min-parallelism", 1, 1);
        int max = options.integer("max-parallelism", 32, 1);
        if (min > max) {
            throw new CliException("--min-parallelism " + min + " is above --max-parallelism " + max + "; lower it");
        }
        Duration restart = emulatedRestart(options);
        PolicyConfig policy = PolicyConfig.builder()
                .targetUtilization(options.decimal("target-utilization", 1.0, 0.1, 1.0))
                .jobBounds(min, max)
                .catchUpDuration(options.duration("catch-up", Duration.ofSeconds(60)))
                .scaleDownDelay(options.duration("scale-down-delay", Duration.ofSeconds(20)))
                .deadBand(options.decimal("dead-band", 0, 0, 1))
                .noiseTolerance(options.decimal("noise-tolerance", 0.02, 0, 0.2))
                // a local rescale takes about 2 s; the user said how much longer it will be down
                .expectedRescaleDuration(Duration.ofSeconds(2).plus(restart))
                .warmUp(options.duration("warm-up", Duration.ofSeconds(3)))
                .maxMetricsAge(interval.multipliedBy(3))
                .build();
        return new AutoscalerSettings(mode.equals("auto") ? Mode.AUTO : Mode.RECOMMEND, interval,
                positive(options, "window", interval), options.duration("warm-up", Duration.ofSeconds(3)), policy,
                Duration.ofMinutes(2), Path.of(options.text("savepoint-dir", "flowscale-data")), restart);
    }

    private static Duration emulatedRestart(CliOptions options) {
        Duration d = options.duration("emulated-restart", Duration.ZERO);
        if (d.compareTo(InProcessScalingRealizer.MAX_EMULATED_RESTART) > 0) {
            throw new CliException("option --emulated-restart " + options.text("emulated-restart", "")
                    + " is above 10m; use 0s to 10m (a cluster's rescale costs 30s to 60s)");
        }
        return d;
    }

    private static Duration positive(CliOptions options, String name, Duration fallback) {
        Duration d = options.duration(name, fallback);
        if (d.isZero()) {
            throw new CliException("option --" + name + " must be above zero");
        }
        return d;
    }

    static List<String> withDefaults(List<String> defaults, List<String> given) {
        List<String> merged = new ArrayList<>(defaults);
        merged.addAll(given);
        return merged;
    }
}
