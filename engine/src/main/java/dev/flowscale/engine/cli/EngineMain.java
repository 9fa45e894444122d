package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runner.JobControlApi;
import dev.flowscale.engine.runner.RunnerRoutes;
import dev.flowscale.engine.runner.JobRunnerApi;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.userjob.UserJob;
import dev.flowscale.engine.userjob.UserJobCommand;
import dev.flowscale.engine.userjob.UserJobLoader;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code flowscale-engine run <job> [options]}: runs a built-in job on the embedded engine and
 * prints per-operator DS2 rates while it runs, until {@code --duration} or Ctrl-C.
 */
public final class EngineMain {
    static final String USAGE = """
            usage: flowscale-engine run <job> [options]     jobs: wordcount, chain
                   flowscale-engine run --job-jar JAR --job-class CLASS [options] [--<job option> VALUE ...]
                   flowscale-engine list
            options:
              --duration D            stop after D (e.g. 30s, 2m; at most 8760h): stop the sources, drain
                                      for up to 5s, then cancel; default: run until Ctrl-C
              --rate SPEC             source rate: max (default), 1000, constant:1000,
                                      steps:0s=1000,30s=3000, sine:base=1000,amplitude=500,period=60s,
                                      trace:/path/file.csv (lines time,rate)
              --parallelism OP=P,...  parallelism per operator id (e.g. split=2,count=4)
              --cost OP=COST,...      synthetic per-record cost per operator (cpu:200us, sleep:1ms, none)
              --max-parallelism N     number of key groups (default 128)
              --words-per-sentence N  wordcount: words per sentence (default 10)
              --vocabulary N          wordcount: distinct words (default 10000)
              --stages N              chain: number of map operators (default 3)
              --stage-cost COST       chain: cost of every map (default cpu:20us)
              --print-interval D      how often to print rates (default 2s, at least 100ms)
              --metrics-port N        serve Prometheus metrics on http://0.0.0.0:N/metrics and the
                                      job API on /api/v1/job and /api/v1/metrics (JSON); POST
                                      /api/v1/savepoint takes a savepoint, POST
                                      /api/v1/stop-with-savepoint stops the job with one and exits
              --savepoint-dir DIR     where checkpoints and savepoints go (default ./flowscale-data/<job>)
              --checkpoint-interval D time between periodic checkpoints (default 0: savepoints only)
              --checkpoint-failures N fail the job over (restart from its latest snapshot) after N
                                      periodic checkpoints failed in a row (default 3)
              --retain N              keep the newest N checkpoints and N savepoints (default 3)
              --restore-from PATH     start from this savepoint or checkpoint directory unless the
                                      storage holds a newer complete snapshot (a runner always
                                      resumes from the newest; see docs/durability.md); the
                                      parallelism may differ from the one it was taken at
              --job-name NAME         the job's name in metrics (label job) and the API (default:
                                      the built-in job's name); the Kubernetes operator passes
                                      <namespace>/<name> of the StreamJob
              --after-stop MODE       exit (default) or linger: after the job stops with a
                                      savepoint or finishes, keep serving the API (status STOPPED,
                                      /api/v1/ready answers 503) until terminated, so that a
                                      container runtime does not restart the job with old arguments
              --api-token-file FILE   POST requests to the API need 'Authorization: Bearer <token>' with
                                      the token in FILE (default: the environment variable
                                      FLOWSCALE_RUNNER_TOKEN; neither: the API is open)
              --batch-size N          records per batch between instances (default 512)
              --no-instrumentation    turn the DS2 counters off (to measure their cost)
              --job-jar PATH          a user job's jar (or a folder of jars; several separated by :), loaded
                                      in its own class loader: its own libraries win over the engine's
              --job-class CLASS       the class in --job-jar that implements
                                      dev.flowscale.engine.job.StreamingJob; every option the runner does
                                      not know goes to the job, which refuses those it does not read
              --help                  this text
            exit codes: 0 done, 1 the job failed, 2 bad arguments (one line on stderr names the option), 130 interrupted
            """;

    /** The highest TCP port; 0 picks a free one. */
    public static final int MAX_PORT = 65_535;
    /** Below this a live view prints faster than anyone reads, and floods a log. */
    public static final Duration MIN_PRINT_INTERVAL = Duration.ofMillis(100);
    /** How long the sources' last records may take to drain once the duration is over. */
    static final Duration DRAIN_GRACE = Duration.ofSeconds(5);

    private EngineMain() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, System.getenv(), out, err);
    }

    /** {@code env}: the process environment, where FLOWSCALE_RUNNER_TOKEN may be set. */
    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        try {
            return switch (args.get(0)) {
                case "list" -> list(out);
                case "run" -> runJob(args.subList(1, args.size()), env, out);
                default -> throw new EngineException("unknown command '" + args.get(0) + "'; use run or list");
            };
        } catch (JobFailedException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (EngineException e) {
            err.println("error: " + e.getMessage()); // one line: the option and its range; --help has the rest
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (RuntimeException e) {
            err.println("error: " + e);
            return 1;
        }
    }

    private static int list(PrintStream out) {
        BuiltinJobs.describe().forEach((name, shape) -> out.printf("%-10s %s%n", name, shape));
        return 0;
    }

    private static int runJob(List<String> args, Map<String, String> env, PrintStream out)
            throws InterruptedException {
        RunCommand run = RunCommand.parse(args);
        // Read here, not in check(): the token file exists only where the runner runs (e.g. its pod).
        String token = ApiToken.resolve(run.options(), env);
        CliOptions options = run.options();
        Duration duration = run.duration();
        Duration interval = run.printInterval();
        boolean linger = run.linger();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobConfig config = JobConfig.defaults().withBatchSize(options.integer("batch-size", 512, 1))
                .withInstrumentation(!options.has("no-instrumentation")).withMeterRegistry(registry)
                .withCheckpointing(checkpointing(options, run.name()));
        var graph = run.graph();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (run.userJob() != null) { // the job's threads (started from this one) load its classes
            Thread.currentThread().setContextClassLoader(run.userJob().classLoader());
        }
        try (UserJob userJob = run.userJob(); MetricsHttpServer server = options.has("metrics-port")
                ? MetricsHttpServer.start("0.0.0.0", options.integer("metrics-port", 0, 0, MAX_PORT), registry) : null) {
            if (server != null) {
                out.println("metrics: http://localhost:" + server.port() + "/metrics");
            }
            out.println("running " + graph + (duration == null ? " until Ctrl-C" : " for " + duration.toSeconds() + "s"));
            RunningJob job = RunningJob.recover(graph, config, options.has("restore-from")
                    ? Path.of(options.text("restore-from", "")) : null, line -> out.println("restore: " + line));
            JobControlApi control = server == null ? null : serveApi(server, job, token, out);
            int code = watch(job, duration, interval, out);
            if (control != null) {
                control.awaitStopAnswered(Duration.ofSeconds(10)); // a stop request ended the job: answer it first
            }
            if (linger && code == 0 && server != null) {
                out.println("job " + job.status() + "; serving the API until terminated (--after-stop linger)");
                new CountDownLatch(1).await();
            }
            return code;
        } finally {
            Thread.currentThread().setContextClassLoader(context);
        }
    }

    /**
     * Checks the arguments of {@code run <job> <args>} as a run would before it starts (options,
     * values, the job's graph), so a caller such as the Kubernetes operator can reject them early.
     *
     * @throws EngineException with the message a run would print
     */
    public static void check(String job, List<String> args) {
        List<String> command = new java.util.ArrayList<>();
        command.add(job);
        command.addAll(args);
        closeQuietly(RunCommand.parse(command).userJob());
    }

    /** A parsed {@code run} command: every check a run makes before anything starts. */
    private record RunCommand(String name, CliOptions options, dev.flowscale.engine.graph.JobGraph graph,
                              Duration duration, Duration printInterval, boolean linger, UserJob userJob) {
        static RunCommand parse(List<String> args) {
            boolean user = UserJobCommand.isUserJob(args);
            if (!user && (args.isEmpty() || args.get(0).startsWith("--"))) {
                throw new EngineException("run needs a job name (built-in jobs are " + BuiltinJobs.NAMES
                        + ") or --job-jar JAR --job-class CLASS");
            }
            Set<String> valued = new HashSet<>(user ? Set.of("parallelism", "cost", "max-parallelism", "job-jar",
                    "job-class") : BuiltinJobs.JOB_OPTIONS);
            valued.addAll(Set.of("duration", "print-interval", "metrics-port", "batch-size", "savepoint-dir",
                    "checkpoint-interval", "restore-from", "job-name", "after-stop", "retain", "checkpoint-failures",
                    "api-token-file"));
            Set<String> flags = Set.of("no-instrumentation");
            UserJobCommand userArgs = user ? UserJobCommand.split(args, valued, flags) : null;
            CliOptions options = CliOptions.parse(user ? userArgs.runnerArgs() : args.subList(1, args.size()), valued,
                    flags);
            Duration duration = options.duration("duration", null);
            Duration interval = options.duration("print-interval", Duration.ofSeconds(2), MIN_PRINT_INTERVAL);
            checkpointing(options, args.get(0));
            options.integer("batch-size", 512, 1, 65_536);
            options.integer("metrics-port", 0, 0, MAX_PORT);
            boolean linger = afterStop(options);
            UserJob userJob = user ? UserJobLoader.load(options.has("job-jar") ? options.text("job-jar", "") : null,
                    options.text("job-class", null), EngineMain.class.getClassLoader()) : null;
            try {
                var graph = (user ? userJob(userJob, userArgs, options) : BuiltinJobs.build(args.get(0), options)).build();
                String name = user ? graph.jobName() : args.get(0);
                if (options.has("job-name")) {
                    graph = graph.withJobName(options.text("job-name", graph.jobName()));
                }
                return new RunCommand(name, options, graph, duration, interval, linger, userJob);
            } catch (RuntimeException e) {
                closeQuietly(userJob);
                throw e;
            }
        }

        /** A user's job, with the runner's --max-parallelism (if given), --parallelism and --cost over it. */
        private static JobBuilder userJob(UserJob userJob, UserJobCommand args, CliOptions options) {
            JobBuilder job = userJob.build(args.jobOptions());
            int keyGroups = options.integer("max-parallelism", job.maxParallelism(), 1,
                    KeyGroups.UPPER_BOUND_MAX_PARALLELISM);
            job.maxParallelism(keyGroups);
            BuiltinJobs.configureOperators(job, options, "max-parallelism", keyGroups);
            return job;
        }
    }

    private static void closeQuietly(UserJob userJob) {
        try {
            if (userJob != null) {
                userJob.close();
            }
        } catch (EngineException e) {
            System.err.println("warning: closing the job's class loader: " + e);
        }
    }

    private static boolean afterStop(CliOptions options) {
        String mode = options.text("after-stop", "exit");
        if (!mode.equals("exit") && !mode.equals("linger")) {
            throw new EngineException("option --after-stop is '" + mode + "'; use exit or linger");
        }
        return mode.equals("linger");
    }

    /**
     * Snapshot storage: --savepoint-dir (default ./flowscale-data/JOB), --checkpoint-interval
     * (0: savepoints only), --retain and --checkpoint-failures.
     */
    private static CheckpointConfig checkpointing(CliOptions options, String jobName) {
        Path dir = Path.of(options.text("savepoint-dir", Path.of("flowscale-data", jobName).toString()));
        Duration every = options.duration("checkpoint-interval", Duration.ZERO);
        return CheckpointConfig.every(every, dir)
                .withRetained(options.integer("retain", CheckpointConfig.DEFAULT_RETAINED, 1, 1000))
                .withFailoverAfter(options.integer("checkpoint-failures", CheckpointConfig.DEFAULT_FAILOVER_AFTER, 1, 1000));
    }

    private static JobControlApi serveApi(MetricsHttpServer server, RunningJob job, String token, PrintStream out) {
        JobRunnerApi api = new JobRunnerApi(java.time.Clock.systemUTC());
        api.attach(job);
        api.serveOn(server);
        server.requireBearerToken(token);
        JobControlApi control = RunnerRoutes.serveControl(server, job, Duration.ofMinutes(1));
        out.println("job API: http://localhost:" + server.port() + "/api/v1/job and /api/v1/metrics; POST "
                + JobControlApi.SAVEPOINT + " and " + JobControlApi.STOP_WITH_SAVEPOINT
                + (token == null ? "" : " (with Authorization: Bearer <token>)"));
        return control;
    }

    private static int watch(RunningJob job, Duration duration, Duration interval, PrintStream out)
            throws InterruptedException {
        long start = System.nanoTime();
        LiveView view = new LiveView(out, start);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            job.stop();
            awaitQuietly(stopped);
        }, "flowscale-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            long deadline = duration == null ? Long.MAX_VALUE : start + duration.toNanos();
            while (!job.await(Duration.ofNanos(Math.max(1, Math.min(interval.toNanos(), deadline - System.nanoTime()))))) {
                if (System.nanoTime() >= deadline) {
                    drainThenCancel(job, out);
                    break;
                }
                view.print(job.metrics());
            }
            view.summary(job.metrics());
            return 0;
        } finally {
            stopped.countDown();
            closeQuietly(job);
            removeHook(hook);
        }
    }

    /**
     * Stops the sources and lets the records in flight drain for {@link #DRAIN_GRACE}; a job whose
     * operators are too slow to drain by then (e.g. a cost of seconds per record) is cancelled,
     * so a run never outlasts its duration by more than the grace.
     */
    private static void drainThenCancel(RunningJob job, PrintStream out) throws InterruptedException {
        out.println("\nduration reached: stopping the sources and draining (at most " + DRAIN_GRACE.toSeconds() + "s)");
        job.stop();
        if (!job.await(DRAIN_GRACE)) {
            out.println("the records in flight did not drain within " + DRAIN_GRACE.toSeconds()
                    + "s; cancelling the job (they are dropped)");
            job.cancel();
            job.await(DRAIN_GRACE);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(java.util.concurrent.TimeUnit.SECONDS.toMillis(10), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook is running.
        }
    }

    private static void closeQuietly(RunningJob job) {
        try {
            job.close();
        } catch (Exception e) {
            System.err.println("warning: closing the job: " + e);
        }
    }
}
