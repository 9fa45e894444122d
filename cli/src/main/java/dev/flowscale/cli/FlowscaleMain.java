package dev.flowscale.cli;

import dev.flowscale.engine.cli.CliOptions;
import dev.flowscale.engine.cli.EngineMain;

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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.settings.DurationText;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import java.util.Set;
import dev.flowscale.engine.userjob.UserJob;
import dev.flowscale.engine.userjob.UserJobCommand;

/**
 * {@code flowscale run <job>} runs a job on the embedded engine with the DS2 autoscaler live;
 * {@code flowscale demo} runs a scripted scenario that shows a scale-up and a scale-down.
 */
public final class FlowscaleMain {
    static final String USAGE = """
            usage: flowscale run <job> [options]     built-in jobs: wordcount, chain
                   flowscale run --job-jar JAR --job-class CLASS [options] [--<job option> VALUE ...]
                                                     your own job (see README, "Your own job")
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
              --key-groups N            max parallelism = number of key groups (default 128; a --job-class:
                                        the number its job declares)
              --job-jar PATH            your job's jar (or a folder of jars), loaded in its own class loader
              --job-class CLASS         the class in --job-jar implementing dev.flowscale.engine.job.StreamingJob;
                                        options this command does not know go to that job
            autoscaler (the settings table, docs/autoscaler-settings.md; defaults for a run in this process):
            %s
              --window D                metrics window of a decision (default: the policy interval)
              --emulated-restart D      emulate the cost of a pod restart: keep the job down this much longer
                                        at each rescale (0s..10m, default 0s; a cluster's rescale costs 30-60s)
            output:
              --duration D              stop after D (default: until Ctrl-C)
              --print-interval D        how often to print operator rates (default 5s, at least 100ms)
              --report FILE.html        write a self-contained HTML report with charts at the end (also
                                        when the run fails); its folder must exist and be writable
              --metrics-port N          serve Prometheus metrics on http://0.0.0.0:N/metrics (0..65535)
              --savepoint-dir DIR       where rescale savepoints go (default ./flowscale-data)
              --help                    this text
            exit codes: 0 done, 1 the run failed, 2 bad arguments (one line on stderr names the option), 130 interrupted
            """.formatted(SettingsUsage.lines());
    /** Options of a run besides the autoscaler settings of the table ({@link Setting}). */
    static final Set<String> OUTPUT_OPTIONS = Set.of("window", "emulated-restart", "duration", "print-interval",
            "report", "metrics-port", "savepoint-dir");
    static final Set<String> RUN_OPTIONS = SettingsUsage.withTableOptions(OUTPUT_OPTIONS);

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
            err.println("error: " + e.getMessage()); // one line: the option and its range; --help has the rest
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
        boolean user = UserJobCommand.isUserJob(args);
        if (!user && (args.isEmpty() || args.get(0).startsWith("--"))) {
            throw new CliException("run needs a job name (built-in jobs are " + JobCatalog.JOBS.keySet()
                    + ") or --job-jar JAR --job-class CLASS");
        }
        Set<String> valued = new HashSet<>(user ? UserJobs.OPTIONS : JobCatalog.OPTIONS);
        valued.addAll(RUN_OPTIONS);
        UserJobCommand userArgs = user ? UserJobCommand.split(args, valued, Set.of()) : null;
        CliOptions options = CliOptions.parse(user ? userArgs.runnerArgs() : args.subList(1, args.size()), valued,
                Set.of());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try (UserJob userJob = user ? UserJobs.load(options) : null) {
            if (userJob != null) { // the job's threads (started from this one) load its classes
                Thread.currentThread().setContextClassLoader(userJob.classLoader());
            }
            JobGraph graph = user ? UserJobs.build(userJob, userArgs, options) : JobCatalog.build(args.get(0), options);
            return run(graph, settings(options, graph.maxParallelism()), output(options), options, out);
        } finally {
            Thread.currentThread().setContextClassLoader(context);
        }
    }

    private static int run(JobGraph graph, AutoscalerSettings settings, Session.Output output, CliOptions options,
                           PrintStream out) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsHttpServer server = options.has("metrics-port")
                ? MetricsHttpServer.start("0.0.0.0", options.integer("metrics-port", 0, 0, EngineMain.MAX_PORT), registry)
                : null) {
            if (server != null) {
                out.println("metrics: http://localhost:" + server.port() + "/metrics");
            }
            return new Session(graph, settings, registry, output, out, Clock.systemUTC()).run();
        }
    }

    /** The output options, checked (the report's folder written to) before anything starts. */
    static Session.Output output(CliOptions options) {
        options.integer("metrics-port", 0, 0, EngineMain.MAX_PORT);
        Path report = options.has("report") ? ReportFile.claim(options.text("report", "")) : null;
        return new Session.Output(options.duration("duration", null),
                options.duration("print-interval", Duration.ofSeconds(5), EngineMain.MIN_PRINT_INTERVAL), report,
                options.given(), options.has("job-class") ? null : JobCatalog.plannedRate(options));
    }

    /**
     * The autoscaler's settings: every option of the settings table over the table's local
     * defaults (one assembly, as the operator's over its cluster defaults), plus the window.
     */
    static AutoscalerSettings settings(CliOptions options) {
        return settings(options, JobCatalog.keyGroups(options));
    }

    /** The settings for a job of {@code keyGroups} key groups (which bound --max-parallelism). */
    static AutoscalerSettings settings(CliOptions options, int keyGroups) {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            if (options.has(s.option())) {
                given.put(s, options.text(s.option(), ""));
            }
        }
        if (!given.containsKey(Setting.MAX_PARALLELISM)) {
            given.put(Setting.MAX_PARALLELISM, Integer.toString(Math.min(keyGroups,
                    Integer.parseInt(Setting.MAX_PARALLELISM.defaultText(Setting.Profile.LOCAL)))));
        }
        Duration restart = emulatedRestart(options);
        if (restart.compareTo(Duration.ZERO) > 0 && !given.containsKey(Setting.EXPECTED_DOWNTIME)) {
            // a local rescale takes about its local prior; the user said how much longer it will be down
            given.put(Setting.EXPECTED_DOWNTIME, DurationText.format(DurationText.parse("--expected-downtime",
                    Setting.EXPECTED_DOWNTIME.defaultText(Setting.Profile.LOCAL)).plus(restart)));
        }
        SettingValues values;
        try {
            values = SettingValues.resolve(given, "option --", Setting.Profile.LOCAL);
        } catch (PolicyException e) {
            throw new CliException(e.getMessage());
        }
        int max = values.count(Setting.MAX_PARALLELISM);
        if (max > keyGroups) {
            throw new CliException("option --max-parallelism is " + max + ", above --key-groups " + keyGroups
                    + " (an operator has at most one instance per key group); lower it or raise --key-groups");
        }
        if (!values.enabled()) {
            throw new CliException("option --mode off runs no autoscaler; use auto or recommend, or run the job with"
                    + " java -jar flowscale-engine.jar");
        }
        Duration interval = values.duration(Setting.POLICY_INTERVAL);
        return new AutoscalerSettings(values.mode(), interval, positive(options, "window", interval),
                values.duration(Setting.WARM_UP), values.policy(), Duration.ofMinutes(2),
                ReportFile.writableFolder("savepoint-dir", options.text("savepoint-dir", "flowscale-data")), restart);
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
