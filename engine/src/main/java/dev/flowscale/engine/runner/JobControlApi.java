package dev.flowscale.engine.runner;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.metrics.HttpCall;
import dev.flowscale.engine.metrics.HttpReply;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.ControlRequest;
import dev.flowscale.runner.api.Readiness;
import dev.flowscale.runner.api.RunnerPaths;
import dev.flowscale.runner.api.SavepointView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The job runner's control API (docs/runner-api.md): {@code POST /api/v1/savepoint} takes a
 * savepoint while the job keeps running, {@code POST /api/v1/stop-with-savepoint} stops the job
 * with one; both answer 200 {@code {"savepoint": "<dir>"}} and take an optional body {@code
 * {"timeoutSeconds": N}}. Control requests run one at a time on their own thread, so probes and
 * scrapes are never queued behind them. Stopping is idempotent: a stop that arrives while another
 * runs, or after it succeeded, answers the same savepoint. To add a control endpoint, route it in
 * {@link #serveOn} with {@link #executor()}.
 */
public final class JobControlApi {
    /** Control requests that may wait behind the running one; more are answered 503. */
    static final int QUEUE = 16;

    private final RunningJob job;
    private final Duration timeout;
    private final CountDownLatch stopAnswered = new CountDownLatch(1);
    private final ThreadPoolExecutor control;
    private volatile boolean stopRequested;
    private Path stoppedWith; // only touched on the control thread

    public JobControlApi(RunningJob job, Duration timeout) {
        if (job == null || timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new EngineException(
                    "job control API needs a job and a timeout > 0; got " + job + ", " + timeout);
        }
        this.job = job;
        this.timeout = timeout;
        this.control =
                new ThreadPoolExecutor(
                        1,
                        1,
                        30,
                        TimeUnit.SECONDS,
                        new ArrayBlockingQueue<>(QUEUE),
                        r -> {
                            Thread t = new Thread(r, "flowscale-control");
                            t.setDaemon(true);
                            return t;
                        });
        control.allowCoreThreadTimeOut(true); // no idle thread is kept between control requests
    }

    /** Routes the control endpoints on {@code server}. */
    public JobControlApi serveOn(MetricsHttpServer server) {
        server.route("POST", RunnerPaths.SAVEPOINT, this::savepoint, executor())
                .route("POST", RunnerPaths.STOP_WITH_SAVEPOINT, this::stop, executor());
        return this;
    }

    /**
     * The control thread: routes on it run one at a time. After each request it checks whether a
     * stop has been answered (the router has sent the reply when the task returns).
     */
    public Executor executor() {
        return command ->
                control.execute(
                        () -> {
                            command.run();
                            if (stopRequested && stoppedWith != null) {
                                stopAnswered.countDown();
                            }
                        });
    }

    /**
     * Waits until the answer to a stop-with-savepoint request has been sent, so the runner can exit
     * without cutting it off; returns at once when no stop was requested.
     */
    public boolean awaitStopAnswered(Duration wait) throws InterruptedException {
        return !stopRequested || stopAnswered.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    private HttpReply savepoint(HttpCall call) {
        Duration limit = limit(call);
        requireRunning(call.path());
        try {
            return saved(job.triggerSavepoint().get(limit.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            throw failed(
                    call.path(),
                    e.getCause() instanceof EngineException engine
                            ? engine
                            : new SnapshotException(String.valueOf(e.getCause()), e.getCause()));
        } catch (TimeoutException e) {
            throw new HttpReply.Refusal(
                    504,
                    call.path()
                            + " of job '"
                            + job.name()
                            + "' did not complete within "
                            + limit.toSeconds()
                            + "s; the savepoint may still complete, retry with a larger timeoutSeconds");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HttpReply.Refusal(
                    503, call.path() + " was interrupted: the runner is shutting down");
        }
    }

    private HttpReply stop(HttpCall call) {
        Duration limit = limit(call);
        if (stoppedWith != null) {
            return saved(stoppedWith); // a repeated or concurrent stop joins the first one's result
        }
        requireRunning(call.path());
        stopRequested = true; // before the job ends, so the runner waits for this answer
        try {
            stoppedWith = job.stopWithSavepoint(limit);
            return saved(stoppedWith);
        } catch (EngineException e) {
            throw failed(call.path(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HttpReply.Refusal(
                    503, call.path() + " was interrupted: the runner is shutting down");
        } finally {
            if (stoppedWith == null) {
                stopRequested =
                        false; // the stop failed: the job may still run, and a retry may stop it
            }
        }
    }

    private Duration limit(HttpCall call) {
        Integer seconds =
                call.json(ControlRequest.class).map(ControlRequest::timeoutSeconds).orElse(null);
        if (seconds == null) {
            return timeout;
        }
        if (seconds < ControlRequest.MIN_TIMEOUT || seconds > ControlRequest.MAX_TIMEOUT) {
            throw new HttpReply.Refusal(
                    400,
                    "the body of POST "
                            + call.path()
                            + " has timeoutSeconds "
                            + seconds
                            + "; use "
                            + ControlRequest.MIN_TIMEOUT
                            + ".."
                            + ControlRequest.MAX_TIMEOUT);
        }
        return Duration.ofSeconds(seconds);
    }

    private void requireRunning(String path) {
        RunningJob.Status status = job.status();
        if (status == RunningJob.Status.RUNNING) {
            return;
        }
        String retry =
                status == RunningJob.Status.RESCALING || status == RunningJob.Status.RESTARTING
                        ? "retry when GET " + RunnerPaths.JOB + " reports " + Readiness.RUNNING
                        : "it will not run again in this runner";
        throw new HttpReply.Refusal(
                409,
                "job '"
                        + job.name()
                        + "' is "
                        + status
                        + "; "
                        + path
                        + " needs a running job, "
                        + retry);
    }

    private HttpReply.Refusal failed(String path, EngineException e) {
        return new HttpReply.Refusal(
                e instanceof SnapshotException ? 500 : 409,
                path + " of job '" + job.name() + "' failed: " + e.getMessage());
    }

    private static HttpReply saved(Path dir) {
        return HttpReply.json(200, new SavepointView(dir.toAbsolutePath().toString()));
    }
}
