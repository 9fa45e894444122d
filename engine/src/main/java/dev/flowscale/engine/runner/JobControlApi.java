package dev.flowscale.engine.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.runtime.RunningJob;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The job runner's control API, beside the read-only {@link JobRunnerApi}:
 * {@code POST /api/v1/savepoint} takes a savepoint while the job keeps running and
 * {@code POST /api/v1/stop-with-savepoint} stops the job with one; both answer 200
 * {@code {"savepoint": "<dir>"}}. A job that is not running (or is already being stopped or
 * rescaled) answers 409, a failed snapshot 500, both with an {@link ApiError} body. After a
 * successful stop the runner should exit once {@link #awaitStopAnswered} returns.
 */
public final class JobControlApi implements HttpHandler {
    /** Register the handler at each of these paths (more specific than {@link JobRunnerApi#CONTEXT}). */
    public static final String SAVEPOINT = "/api/v1/savepoint";
    public static final String STOP_WITH_SAVEPOINT = "/api/v1/stop-with-savepoint";

    private final ObjectMapper mapper = new ObjectMapper();
    private final RunningJob job;
    private final Duration timeout;
    private final CountDownLatch stopAnswered = new CountDownLatch(1);
    private volatile boolean stopRequested;

    /** The body of a successful control request: the snapshot's directory. */
    public record SavepointView(String savepoint) {
    }

    public JobControlApi(RunningJob job, Duration timeout) {
        if (job == null || timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new EngineException("job control API needs a job and a timeout > 0; got " + job + ", " + timeout);
        }
        this.job = job;
        this.timeout = timeout;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        try {
            respond(exchange, answer(exchange, path));
        } finally {
            exchange.close();
            if (path.equals(STOP_WITH_SAVEPOINT) && stopRequested) {
                stopAnswered.countDown();
            }
        }
    }

    /**
     * Waits until the answer to a stop-with-savepoint request has been sent, so the runner can
     * exit without cutting it off; returns at once when no stop was requested.
     */
    public boolean awaitStopAnswered(Duration wait) throws InterruptedException {
        return !stopRequested || stopAnswered.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Object answer(HttpExchange exchange, String path) {
        if (!path.equals(SAVEPOINT) && !path.equals(STOP_WITH_SAVEPOINT)) {
            return new ApiError(404, "no resource at " + path + "; use POST " + SAVEPOINT + " or " + STOP_WITH_SAVEPOINT);
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            exchange.getResponseHeaders().set("Allow", "POST");
            return new ApiError(405, exchange.getRequestMethod() + " " + path + " is not supported; use POST");
        }
        if (job.status() != RunningJob.Status.RUNNING) {
            return new ApiError(409, "job '" + job.name() + "' is " + job.status() + "; " + path
                    + " needs a running job, retry when GET " + JobRunnerApi.JOB + " reports RUNNING");
        }
        try {
            return new SavepointView(snapshot(path).toAbsolutePath().toString());
        } catch (SnapshotException e) {
            return new ApiError(500, path + " of job '" + job.name() + "' failed: " + e.getMessage());
        } catch (EngineException e) {
            return new ApiError(409, path + " of job '" + job.name() + "' refused: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ApiError(500, path + " of job '" + job.name() + "' was interrupted; retry");
        }
    }

    private Path snapshot(String path) throws InterruptedException {
        if (path.equals(STOP_WITH_SAVEPOINT)) {
            stopRequested = true; // before the job ends, so the runner waits for this answer
            return job.stopWithSavepoint(timeout);
        }
        try {
            return job.triggerSavepoint().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof EngineException engine ? engine
                    : new SnapshotException(String.valueOf(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new SnapshotException("the savepoint did not complete within " + timeout, e);
        }
    }

    private void respond(HttpExchange exchange, Object body) throws IOException {
        JsonResponses.send(exchange, mapper, body);
    }
}
