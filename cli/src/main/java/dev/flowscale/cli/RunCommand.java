package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.cli.inprocess.InProcessScalingRealizer;
import dev.flowscale.common.DurationText;
import dev.flowscale.engine.checkpoint.Recovery;
import dev.flowscale.engine.checkpoint.SnapshotKeys;
import dev.flowscale.engine.checkpoint.SnapshotSigning;
import dev.flowscale.engine.cli.BoundedStart;
import dev.flowscale.engine.cli.CommandLines;
import dev.flowscale.engine.cli.HelpOption;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.cli.JobStart;
import dev.flowscale.engine.cli.MachineLimits;
import dev.flowscale.engine.cli.OptionValues;
import dev.flowscale.engine.cli.RunOptions;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.userjob.UserJob;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.DoubleUnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flowscale run <job>}: runs a built-in job on the embedded engine with the DS2 autoscaler
 * live. The job's options are the engine's ({@link JobOptions}); the autoscaler's come from the
 * settings table ({@link SettingOptions}), with the table's local defaults.
 */
@Command(
        name = "run",
        sortOptions = false,
        abbreviateSynopsis = true,
        description = "Run a built-in job with the DS2 autoscaler.",
        footer =
                "Exit codes: 0 done, 1 the run failed, 2 bad arguments (one line on stderr names the option),"
                        + " 130 interrupted.%n")
final class RunCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin RunOptions run;

    @Mixin ViewOptions view;

    @Option(
            names = "--savepoint-dir",
            paramLabel = "DIR",
            description =
                    "The job's snapshot storage (default ./flowscale-data/<job>); a run resumes from"
                            + " the newest snapshot there that restores.")
    String savepointDir;

    @Option(
            names = Recovery.START_FRESH,
            description =
                    "Start from nothing even if the --savepoint-dir holds snapshots (they are kept).")
    boolean startFresh;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "D",
            converter = OptionValues.PositiveDuration.class,
            description =
                    "Checkpoint every D into --savepoint-dir (default: savepoints at rescales only);"
                            + " an exactly-once Kafka sink's output becomes visible at each checkpoint.")
    Duration checkpointInterval;

    @Option(
            names = "--checkpoint-tolerance",
            paramLabel = "D",
            converter = OptionValues.AnyDuration.class,
            description =
                    "Fail the job over (restart from its latest snapshot) once periodic checkpoints"
                            + " have kept failing for D (default: 10s or two checkpoint intervals,"
                            + " whichever is longer; 0s: at the first failure).")
    Duration checkpointTolerance;

    @Option(
            names = SnapshotSigning.OPTION,
            paramLabel = "FILE",
            description =
                    "Sign every snapshot with the key in FILE (HMAC-SHA256, at least 32 bytes) and resume"
                            + " only from snapshots signed with it (default: the environment variable "
                            + SnapshotSigning.ENV
                            + "; neither: unsigned).")
    Path snapshotKeyFile;

    @Option(
            names = "--emulated-restart",
            paramLabel = "D",
            defaultValue = "0s",
            converter = OptionValues.AnyDuration.class,
            description =
                    "Emulate the cost of a pod restart: keep the job down this much longer at each rescale"
                            + " (0s..10m, default 0s; a cluster's rescale costs 30-60s).")
    Duration emulatedRestart;

    @Mixin HelpOption help;

    private final PrintStream out;

    private RunCommand(PrintStream out) {
        this.out = out;
    }

    /** The command named {@code name}, with the settings table's options. */
    static CommandSpec spec(String name, PrintStream out) {
        return SettingOptions.addTo(CommandSpec.forAnnotatedObject(new RunCommand(out)).name(name));
    }

    /**
     * {@code args} (without the command's name) parsed and checked as a run would, without running.
     */
    static RunCommand parsed(List<String> args) {
        CommandSpec spec = spec("run", System.out);
        try {
            CommandLines.parseRun(CommandLines.of(spec, System.out, System.err), args);
        } catch (ParameterException e) {
            throw CommandLines.invalid(e);
        }
        return (RunCommand) spec.userObject();
    }

    @Override
    public Integer call() throws Exception {
        // --duration bounds the start-up too: the deadline counts from before the job is built.
        long deadline = BoundedStart.deadline(run.duration());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try (UserJob userJob = run.loadUserJob()) {
            if (userJob != null) { // the job's threads (started from this one) load its classes
                Thread.currentThread().setContextClassLoader(userJob.classLoader());
            }
            Optional<JobGraph> graph =
                    BoundedStart.within(deadline, () -> run.graph(userJob, true), g -> {});
            if (graph.isEmpty()) {
                out.println(BoundedStart.overran(run.duration()));
                return 0;
            }
            return run(graph.get(), deadline);
        } finally {
            Thread.currentThread().setContextClassLoader(context);
        }
    }

    private int run(JobGraph graph, long deadline) throws Exception {
        MachineLimits.check(graph, StateBackendConfig.heap());
        RunSettings settings = settings(graph.keyGroups(), graph.jobName());
        Session.Output output = output();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsHttpServer server =
                run.metricsPort() == null
                        ? null
                        : MetricsHttpServer.start("0.0.0.0", run.metricsPort(), registry)) {
            if (server != null) {
                out.println("metrics: http://localhost:" + server.port() + "/metrics");
            }
            return new Session(graph, settings, registry, output, out, Clock.systemUTC())
                    .run(deadline);
        }
    }

    /** The output options, checked (the report's folder written to) before anything starts. */
    Session.Output output() {
        Path claimed = view.report == null ? null : ReportFile.claim(view.report);
        return new Session.Output(
                run.duration(), view.printInterval, claimed, given(), plannedRate());
    }

    /**
     * The rate a built-in job's generator plans, for the report; null where the load is not {@code
     * --rate}'s: a user's job, or a job that reads Kafka (the load is what producers write).
     */
    private DoubleUnaryOperator plannedRate() {
        boolean generated = !run.userJob() && run.jobOptions().kafkaBootstrapServers() == null;
        return generated ? run.jobOptions().plannedRate() : null;
    }

    /**
     * The options as given (the last value of each, all values of a list), for the report's header.
     */
    private Map<String, String> given() {
        Map<String, String> given = new LinkedHashMap<>();
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            List<String> values = o.originalStringValues();
            given.put(
                    o.longestName().substring(2),
                    o.isMultiValue() ? String.join(",", values) : values.get(values.size() - 1));
        }
        return given;
    }

    /**
     * The autoscaler's settings: every option of the settings table over the table's local defaults
     * (one assembly, as the operator's over its cluster defaults), plus the window.
     */
    RunSettings settings() {
        return settings(run.jobOptions().keyGroups(), run.job());
    }

    /**
     * The settings for a job of {@code keyGroups} key groups (the autoscaler's bound never exceeds
     * them).
     */
    RunSettings settings(int keyGroups, String jobName) {
        Map<Setting, String> given = SettingOptions.given(spec);
        given.putIfAbsent(
                Setting.MAX_PARALLELISM,
                Integer.toString(
                        Math.min(
                                keyGroups,
                                Integer.parseInt(
                                        Setting.MAX_PARALLELISM.defaultText(
                                                Setting.Profile.LOCAL)))));
        Duration restart = emulatedRestart();
        if (restart.compareTo(Duration.ZERO) > 0 && !given.containsKey(Setting.EXPECTED_DOWNTIME)) {
            // a local rescale takes about its local prior; the user said how much longer it will be
            // down
            given.put(
                    Setting.EXPECTED_DOWNTIME,
                    DurationText.format(
                            DurationText.parse(
                                            "--expected-downtime",
                                            Setting.EXPECTED_DOWNTIME.defaultText(
                                                    Setting.Profile.LOCAL))
                                    .plus(restart)));
        }
        SettingValues values = resolve(given);
        int max = values.count(Setting.MAX_PARALLELISM);
        if (max > keyGroups) {
            throw new CliException(
                    "option --max-parallelism is "
                            + max
                            + ", above --key-groups "
                            + keyGroups
                            + " (an operator has at most one instance per key group); lower it or raise --key-groups");
        }
        JobAutoscaler.Settings autoscaler = JobAutoscaler.Settings.of(values);
        return new RunSettings(
                view.window == null ? autoscaler : autoscaler.withWindow(view.window),
                Duration.ofMinutes(2),
                ReportFile.writableFolder("savepoint-dir", storage(jobName)),
                restart,
                checkpointInterval,
                startFresh,
                line -> out.println("restore: " + line),
                checkpointTolerance,
                SnapshotKeys.resolve(snapshotKeyFile, System.getenv()));
    }

    /** {@code --savepoint-dir}, or the runner's default folder for the job (one per job). */
    private String storage(String jobName) {
        if (savepointDir != null) {
            return savepointDir;
        }
        String job = run.job() != null ? run.job() : jobName;
        return Path.of("flowscale-data", JobStart.folderName(job == null ? "job" : job)).toString();
    }

    private static SettingValues resolve(Map<Setting, String> given) {
        SettingValues values;
        try {
            values = SettingValues.resolve(given, "option --", Setting.Profile.LOCAL);
        } catch (PolicyException e) {
            throw new CliException(e.getMessage());
        }
        if (!values.enabled()) {
            throw new CliException(
                    "option --mode off runs no autoscaler; use auto or recommend, or run the job with"
                            + " java -jar flowscale-engine.jar");
        }
        return values;
    }

    private Duration emulatedRestart() {
        if (emulatedRestart.compareTo(InProcessScalingRealizer.MAX_EMULATED_RESTART) > 0) {
            throw new CliException(
                    "option --emulated-restart "
                            + DurationText.format(emulatedRestart)
                            + " is above 10m; use 0s to 10m (a cluster's rescale costs 30s to 60s)");
        }
        return emulatedRestart;
    }
}
