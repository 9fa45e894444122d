package dev.flowscale.engine.cli;

import dev.flowscale.engine.checkpoint.Recovery;
import dev.flowscale.engine.checkpoint.SnapshotKeys;
import dev.flowscale.engine.checkpoint.SnapshotSigning;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runner.JobControlApi;
import dev.flowscale.engine.runner.JobRunnerApi;
import dev.flowscale.engine.runner.RunnerRoutes;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.userjob.UserJob;
import dev.flowscale.runner.api.RunnerPaths;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flowscale-engine run <job> [options]}: runs a built-in job on the embedded engine and
 * prints per-operator DS2 rates while it runs, until {@code --duration} or Ctrl-C.
 */
@Command(
        name = "run",
        sortOptions = false,
        abbreviateSynopsis = true,
        description = {
            "Run a built-in job, printing its operators' DS2 rates.",
            "With --metrics-port the runner also"
                    + " serves its job API there: GET /api/v1/job and /api/v1/metrics (JSON), POST /api/v1/savepoint and"
                    + " /api/v1/stop-with-savepoint (docs/runner-api.md)."
        },
        footer =
                "Exit codes: 0 done, 1 the job failed, 2 bad arguments (one line on stderr names the option),"
                        + " 130 interrupted.%n")
public final class RunCommand implements Callable<Integer> {
    /** What to do once the job stopped with a savepoint or finished. */
    enum AfterStop {
        exit,
        linger
    }

    @Spec CommandSpec spec;
    @Mixin RunOptions run;

    @Option(
            names = "--print-interval",
            paramLabel = "D",
            defaultValue = "2s",
            converter = OptionValues.PrintInterval.class,
            description = "How often to print rates (default ${DEFAULT-VALUE}, at least 100ms).")
    Duration printInterval;

    @Option(
            names = "--savepoint-dir",
            paramLabel = "DIR",
            description = "Where checkpoints and savepoints go (default ./flowscale-data/<job>).")
    Path savepointDir;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "D",
            defaultValue = "0s",
            converter = OptionValues.AnyDuration.class,
            description = "Time between periodic checkpoints (default 0s: savepoints only).")
    Duration checkpointInterval;

    @Option(
            names = "--checkpoint-tolerance",
            paramLabel = "D",
            converter = OptionValues.AnyDuration.class,
            description =
                    "Fail the job over (restart from its latest snapshot) once periodic checkpoints"
                            + " have kept failing for D (default: 10s or two checkpoint intervals,"
                            + " whichever is longer; 0s: at the first failure).")
    Duration checkpointFailureTolerance;

    @Option(
            names = "--checkpoint-failures",
            paramLabel = "N",
            hidden = true,
            converter = ReplacedByTolerance.class,
            description = "Replaced by --checkpoint-tolerance.")
    Integer replacedCheckpointFailures;

    /** The count of failures became a duration; an old command line hears which option to use. */
    static final class ReplacedByTolerance implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            throw new CommandLine.TypeConversionException(
                    "was replaced by --checkpoint-tolerance D, how long checkpoints may"
                            + " keep failing (e.g. 10s)");
        }
    }

    @Option(
            names = "--retain",
            paramLabel = "N",
            converter = OptionValues.UpToThousand.class,
            defaultValue = "" + CheckpointConfig.DEFAULT_RETAINED,
            description =
                    "Keep the newest N checkpoints and N savepoints (default ${DEFAULT-VALUE}).")
    int retain;

    @Option(
            names = "--restore-from",
            paramLabel = "PATH",
            description =
                    "Start from this savepoint or checkpoint directory unless the storage holds a newer"
                            + " complete snapshot (see docs/durability.md); the parallelism may differ from the one it"
                            + " was taken at.")
    Path restoreFrom;

    @Option(
            names = Recovery.START_FRESH,
            description =
                    "Start from nothing even if the --savepoint-dir holds snapshots (they are kept);"
                            + " without it a run resumes from the newest one that restores.")
    boolean startFresh;

    @Option(
            names = SnapshotSigning.OPTION,
            paramLabel = "FILE",
            description =
                    "Sign every snapshot with the key in FILE (HMAC-SHA256, at least 32 bytes) and restore"
                            + " only snapshots signed with it (default: the environment variable "
                            + SnapshotSigning.ENV
                            + "; neither: unsigned).")
    Path snapshotKeyFile;

    @Option(
            names = "--job-name",
            paramLabel = "NAME",
            description =
                    "The job's name in metrics (label job) and the API (default: the built-in job's name);"
                            + " the Kubernetes operator passes <namespace>/<name> of the StreamJob.")
    String jobName;

    @Option(
            names = "--after-stop",
            paramLabel = "MODE",
            defaultValue = "exit",
            description =
                    "exit (default) or linger: after the job stops with a savepoint or finishes, keep"
                            + " serving the API (status STOPPED, /api/v1/ready answers 503) until terminated.")
    AfterStop afterStop;

    @Option(
            names = "--api-token-file",
            paramLabel = "FILE",
            description =
                    "POST requests to the API need 'Authorization: Bearer <token>' with the token in FILE"
                            + " (default: the environment variable FLOWSCALE_RUNNER_TOKEN; neither: the API is open).")
    Path apiTokenFile;

    @Option(
            names = "--latency-interval",
            paramLabel = "D",
            defaultValue = "0s",
            converter = OptionValues.AnyDuration.class,
            description =
                    "Every D each source instance emits a latency marker; every operator instance serves"
                            + " a latency histogram per source (flowscale_marker_latency_seconds). Default"
                            + " ${DEFAULT-VALUE}: off.")
    Duration latencyInterval;

    @Option(
            names = "--batch-size",
            paramLabel = "N",
            defaultValue = "512",
            converter = OptionValues.BatchSize.class,
            description = "Records per batch between instances (default ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(
            names = "--state-backend",
            paramLabel = "NAME",
            defaultValue = "heap",
            description =
                    "Where keyed state lives: heap (default) or rocksdb (embedded RocksDB on local disk,"
                            + " for state larger than the heap; savepoints restore on either).")
    String stateBackend;

    @Option(
            names = "--rocksdb-dir",
            paramLabel = "DIR",
            description =
                    "Local folder for RocksDB's working files, one folder per process, removed at exit"
                            + " and reclaimed after a crash (default: rocksdb-work in the"
                            + " --savepoint-dir).")
    Path rocksDbDir;

    @Option(
            names = "--rocksdb-memory-mb",
            paramLabel = "MB",
            defaultValue = "64",
            description =
                    "Native memory per operator instance for RocksDB's block cache, a quarter of it for"
                            + " write buffers (default ${DEFAULT-VALUE}).")
    int rocksDbMemoryMb;

    @Option(
            names = "--no-instrumentation",
            description = "Turn the DS2 counters off (to measure their cost).")
    boolean noInstrumentation;

    @Mixin HelpOption help;

    private final PrintStream out;
    private final Map<String, String> env;

    /** {@code env}: the process environment, where FLOWSCALE_RUNNER_TOKEN may be set. */
    RunCommand(PrintStream out, Map<String, String> env) {
        this.out = out;
        this.env = env;
    }

    /**
     * The number of key groups was once {@code --max-parallelism}; say so rather than "unknown
     * option".
     */
    @Option(names = "--max-parallelism", hidden = true)
    void oldKeyGroupsOption(String value) {
        throw new ParameterException(
                spec.commandLine(),
                "option --max-parallelism is now --key-groups (the number of"
                        + " key groups); write --key-groups "
                        + value);
    }

    /** The job's graph: every check a run makes before anything starts. */
    JobGraph graph(UserJob userJob) {
        JobGraph graph = run.graph(userJob, false);
        return jobName == null ? graph : graph.withJobName(jobName);
    }

    private CheckpointConfig checkpointing(JobGraph graph) {
        Path dir =
                savepointDir == null
                        ? Path.of(
                                "flowscale-data",
                                folderName(run.job != null ? run.job : graph.jobName()))
                        : savepointDir;
        CheckpointConfig config =
                CheckpointConfig.every(checkpointInterval, dir)
                        .withRetained(retain)
                        .withSigning(SnapshotKeys.resolve(snapshotKeyFile, env));
        return checkpointFailureTolerance == null
                ? config
                : config.withFailureTolerance(checkpointFailureTolerance);
    }

    /** See {@link JobStart#folderName}. */
    static String folderName(String jobName) {
        return JobStart.folderName(jobName);
    }

    @Override
    public Integer call() throws Exception {
        // --duration bounds the start-up too: the deadline counts from before the job is built.
        long deadline = BoundedStart.deadline(run.duration);
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try (UserJob userJob = run.loadUserJob()) {
            if (userJob != null) { // the job's threads (started from this one) load its classes
                Thread.currentThread().setContextClassLoader(userJob.classLoader());
            }
            Optional<JobGraph> graph = BoundedStart.within(deadline, () -> graph(userJob), g -> {});
            return graph.isEmpty() ? startUpOverran() : run(graph.get(), deadline);
        } finally {
            Thread.currentThread().setContextClassLoader(context);
        }
    }

    /** The run's end when its duration passed before its job started. */
    private int startUpOverran() {
        out.println(BoundedStart.overran(run.duration));
        return CommandLines.DONE;
    }

    private StateBackendConfig stateBackend() {
        long memory = (long) rocksDbMemoryMb << 20;
        return StateBackendConfig.named(stateBackend)
                .withLocalDir(rocksDbDir)
                .withMemory(memory, memory / 4);
    }

    private int run(JobGraph graph, long deadline) throws Exception {
        MachineLimits.check(graph, stateBackend());
        // Read here, not in graph(): the token file exists only where the runner runs (e.g. its
        // pod).
        String token = ApiToken.resolve(apiTokenFile, env);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(batchSize)
                        .withInstrumentation(!noInstrumentation)
                        .withMeterRegistry(registry)
                        .withStateBackend(stateBackend())
                        .withCheckpointing(checkpointing(graph))
                        .withLatencyTracking(latencyInterval);
        try (MetricsHttpServer server =
                run.metricsPort == null
                        ? null
                        : MetricsHttpServer.start("0.0.0.0", run.metricsPort, registry)) {
            if (server != null) {
                out.println("metrics: http://localhost:" + server.port() + "/metrics");
            }
            out.println(
                    "running "
                            + graph
                            + (run.duration == null
                                    ? " until Ctrl-C"
                                    : " for " + run.duration.toSeconds() + "s"));
            Optional<RunningJob> started =
                    BoundedStart.within(
                            deadline, () -> start(graph, config), JobWatch::closeQuietly);
            if (started.isEmpty()) {
                return startUpOverran();
            }
            RunningJob running = started.get();
            JobControlApi control = server == null ? null : serveApi(server, running, token);
            int code = new JobWatch(out).watch(running, remaining(deadline), printInterval);
            if (control != null) {
                control.awaitStopAnswered(
                        Duration.ofSeconds(10)); // a stop request ended the job: answer it first
            }
            if (afterStop == AfterStop.linger && code == 0 && server != null) {
                out.println(
                        "job "
                                + running.status()
                                + "; serving the API until terminated (--after-stop linger)");
                new CountDownLatch(1).await();
            }
            return code;
        }
    }

    /**
     * Resumes from the newest snapshot in storage (or {@code --restore-from}), saying which, or,
     * with {@code --start-fresh}, starts from nothing and leaves the stored snapshots alone.
     */
    private RunningJob start(JobGraph graph, JobConfig config) {
        return JobStart.start(
                graph, config, startFresh, restoreFrom, line -> out.println("restore: " + line));
    }

    /**
     * What is left until {@code deadline} ({@link BoundedStart#deadline}; null: no bound): the
     * bound counts the job's start-up (its graph, a restore, its threads) too.
     */
    private static Duration remaining(long deadline) {
        if (deadline == Long.MAX_VALUE) {
            return null;
        }
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private JobControlApi serveApi(MetricsHttpServer server, RunningJob running, String token) {
        JobRunnerApi api = new JobRunnerApi(Clock.systemUTC());
        api.attach(running);
        api.serveOn(server);
        server.requireBearerToken(token);
        JobControlApi control = RunnerRoutes.serveControl(server, running, Duration.ofMinutes(1));
        out.println(
                "job API: http://localhost:"
                        + server.port()
                        + RunnerPaths.JOB
                        + " and "
                        + RunnerPaths.METRICS
                        + "; POST "
                        + RunnerPaths.SAVEPOINT
                        + " and "
                        + RunnerPaths.STOP_WITH_SAVEPOINT
                        + (token == null ? "" : " (with Authorization: Bearer <token>)"));
        return control;
    }
}
