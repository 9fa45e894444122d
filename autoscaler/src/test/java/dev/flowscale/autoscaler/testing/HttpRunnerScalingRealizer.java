package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.autoscaler.realizer.RescaleListener;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.realizer.SingleFlightRealizer;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.RunnerApiException;
import dev.flowscale.runner.api.RunnerClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rescales a job that runs in a job runner process: {@code POST /api/v1/stop-with-savepoint} to the
 * current runner (which then exits), then a new runner at the new parallelism from that savepoint
 * through the {@link RunnerLauncher}; the stage completes when the new runner's {@code GET
 * /api/v1/job} reports RUNNING at the new parallelism. If it does not within the timeout, that
 * runner is stopped and one at the previous parallelism is started from the same savepoint, and the
 * rescale is reported as failed. Savepoints are never deleted.
 */
public final class HttpRunnerScalingRealizer extends SingleFlightRealizer {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    private final RunnerLauncher launcher;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String token;
    private volatile URI runner;

    /**
     * @param runner base URI of the runner the job runs in now (its {@code --metrics-port})
     * @param launcher starts the runner that replaces it
     * @param timeout longest wait for the savepoint and for a new runner to run
     * @param clock reads the start and downtime of each rescale
     * @param listeners told about every rescale
     */
    public HttpRunnerScalingRealizer(
            URI runner,
            RunnerLauncher launcher,
            Duration timeout,
            Clock clock,
            List<RescaleListener> listeners) {
        this(runner, launcher, timeout, clock, listeners, null);
    }

    /**
     * As above, for a runner whose control API needs a bearer token.
     *
     * @param token the runner's FLOWSCALE_RUNNER_TOKEN, sent as {@code Authorization: Bearer};
     *     null: none
     */
    public HttpRunnerScalingRealizer(
            URI runner,
            RunnerLauncher launcher,
            Duration timeout,
            Clock clock,
            List<RescaleListener> listeners,
            String token) {
        super("flowscale-runner-rescaler", timeout, clock, listeners);
        if (runner == null || launcher == null) {
            throw new RealizeException(
                    "HTTP runner realizer needs the runner's base URI and a launcher; got "
                            + runner
                            + ", "
                            + launcher);
        }
        this.runner = runner;
        this.launcher = launcher;
        this.token = token;
    }

    public HttpRunnerScalingRealizer(
            URI runner, RunnerLauncher launcher, Duration timeout, RescaleListener... listeners) {
        this(runner, launcher, timeout, Clock.systemUTC(), Arrays.asList(listeners));
    }

    /** Base URI of the runner the job runs in now; it changes with every rescale. */
    public URI runner() {
        return runner;
    }

    @Override
    protected Optional<RescaleReport> rescale(
            String job, Map<String, Integer> changes, Instant started) {
        JobView before;
        try {
            before = RunnerAwait.job(client(runner));
        } catch (RealizeException e) {
            return Optional.of(
                    RescaleReport.restart(job, started, Map.of(), changes, null, Duration.ZERO)
                            .failedBecause(
                                    "cannot read "
                                            + "the job from runner "
                                            + runner
                                            + " ("
                                            + e.getMessage()
                                            + "); nothing was changed"));
        }
        Map<String, Integer> from = RescaleReport.restrict(before.parallelism(), changes.keySet());
        String refusal = refusal(job, changes, before);
        if (refusal != null) {
            return Optional.of(
                    RescaleReport.restart(job, started, from, changes, null, Duration.ZERO)
                            .failedBecause(refusal + "; nothing was changed"));
        }
        Map<String, Integer> pending = pending(changes, before.parallelism());
        return pending.isEmpty()
                ? Optional.empty()
                : Optional.of(
                        stopAndRestore(
                                job,
                                started,
                                RescaleReport.restrict(from, pending.keySet()),
                                pending,
                                before));
    }

    private RescaleReport stopAndRestore(
            String job,
            Instant started,
            Map<String, Integer> from,
            Map<String, Integer> changes,
            JobView before) {
        Instant stopped = clock.instant();
        Path savepoint;
        try {
            savepoint = Path.of(client(runner).stopWithSavepoint(timeout).savepoint());
        } catch (RunnerApiException e) {
            return RescaleReport.restart(job, started, from, changes, null, since(stopped))
                    .failedBecause(
                            "stop-with-savepoint of runner "
                                    + runner
                                    + " failed ("
                                    + e.getMessage()
                                    + "); the job keeps running there at "
                                    + before.parallelism());
        }
        return restore(
                new Rescale(job, started, stopped, from, changes, savepoint, before.parallelism()));
    }

    /** Why a decision cannot be applied to what the runner runs, or null. */
    private String refusal(String job, Map<String, Integer> changes, JobView current) {
        if (!job.equals(current.name())) {
            return "the decision is for job '"
                    + job
                    + "' but runner "
                    + runner
                    + " runs job '"
                    + current.name()
                    + "'";
        }
        for (String op : changes.keySet()) {
            if (!current.parallelism().containsKey(op)) {
                return "job '"
                        + job
                        + "' has no operator '"
                        + op
                        + "'; its operators are "
                        + current.parallelism().keySet();
            }
        }
        return current.running()
                ? null
                : "job '"
                        + job
                        + "' in runner "
                        + runner
                        + " is "
                        + current.status()
                        + ", not RUNNING";
    }

    /** One rescale in progress, after the old runner stopped with {@code savepoint}. */
    private record Rescale(
            String job,
            Instant started,
            Instant stopped,
            Map<String, Integer> from,
            Map<String, Integer> to,
            Path savepoint,
            Map<String, Integer> before) {
        Map<String, Integer> after() {
            Map<String, Integer> after = new LinkedHashMap<>(before);
            after.putAll(to);
            return after;
        }
    }

    private RescaleReport restore(Rescale r) {
        try {
            runner = startAndAwait(r.after(), r.savepoint());
            return restarted(r);
        } catch (RuntimeException e) {
            return rollBack(
                    r, "the runner at " + r.after() + " did not come up: " + e.getMessage());
        }
    }

    private RescaleReport rollBack(Rescale r, String why) {
        try {
            runner = startAndAwait(r.before(), r.savepoint());
            return restarted(r)
                    .failedBecause(
                            why
                                    + "; rolled back: job '"
                                    + r.job()
                                    + "' runs again at "
                                    + r.before()
                                    + " in "
                                    + runner
                                    + " from savepoint "
                                    + r.savepoint());
        } catch (RuntimeException e) {
            return restarted(r)
                    .failedBecause(
                            why
                                    + "; the rollback to "
                                    + r.before()
                                    + " failed too ("
                                    + e.getMessage()
                                    + "): job '"
                                    + r.job()
                                    + "' is not running; start it with --restore-from "
                                    + r.savepoint());
        }
    }

    /** The report of {@code r}, which restarted the runner; its downtime runs until now. */
    private RescaleReport restarted(Rescale r) {
        return RescaleReport.restart(
                r.job(), r.started(), r.from(), r.to(), r.savepoint(), since(r.stopped()));
    }

    private URI startAndAwait(Map<String, Integer> parallelism, Path savepoint) {
        URI next = launcher.start(parallelism, savepoint);
        try {
            RunnerAwait.awaitRunning(client(next), parallelism, timeout, () -> true);
            return next;
        } catch (RuntimeException e) {
            launcher.stop(next);
            throw e;
        }
    }

    private RunnerClient client(URI address) {
        return new RunnerClient(http, address, READ_TIMEOUT, token);
    }
}
