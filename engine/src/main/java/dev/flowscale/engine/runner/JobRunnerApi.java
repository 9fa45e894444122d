package dev.flowscale.engine.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.runtime.RunningJob;
import java.io.IOException;
import java.time.Clock;
import java.util.UUID;

/**
 * The job runner's JSON API, served beside the Prometheus endpoint: {@code GET /api/v1/job}
 * ({@link JobView}), {@code GET /api/v1/metrics} ({@link MetricsView}) and {@code GET /api/v1/ready}
 * (200 while the job is RUNNING, 503 otherwise: a readiness probe). The run id joins a
 * random id per job handed to {@link #attach} with the engine's id of the current execution, so
 * it changes whenever counters start again at zero: a new job, a restart after a failure, a
 * rescale. Unknown paths answer 404 and
 * methods other than GET 405, both with an {@link ApiError} body.
 */
public final class JobRunnerApi implements HttpHandler {
    /** Where to register the handler; it answers every path below it. */
    public static final String CONTEXT = "/api/";
    static final String JOB = "/api/v1/job";
    static final String METRICS = "/api/v1/metrics";
    public static final String READY = "/api/v1/ready";

    private final ObjectMapper mapper = new ObjectMapper();
    private final Clock clock;
    private volatile Run current;

    private record Run(RunningJob job, String id) {
    }

    /** The body of a ready answer. */
    public record Readiness(boolean ready, String status) {
    }

    public JobRunnerApi(Clock clock) {
        if (clock == null) {
            throw new EngineException("job runner API clock is null; pass Clock.systemUTC()");
        }
        this.clock = clock;
    }

    /** Serves {@code job} from now on; returns the random part of its run ids. */
    public String attach(RunningJob job) {
        if (job == null) {
            throw new EngineException("job runner API: attach needs a running job, got null");
        }
        Run run = new Run(job, UUID.randomUUID().toString());
        current = run;
        return run.id();
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            Object body;
            try {
                body = answer(exchange);
            } catch (RuntimeException e) {
                body = new ApiError(500, "job runner API failed on " + exchange.getRequestURI() + ": " + e);
            }
            respond(exchange, body);
        } finally {
            exchange.close();
        }
    }

    private Object answer(HttpExchange exchange) {
        String path = exchange.getRequestURI().getPath();
        if (!path.equals(JOB) && !path.equals(METRICS) && !path.equals(READY)) {
            return new ApiError(404, "no resource at " + path + "; use GET " + JOB + ", " + METRICS + " or " + READY);
        }
        if (!exchange.getRequestMethod().equals("GET")) {
            exchange.getResponseHeaders().set("Allow", "GET");
            return new ApiError(405, exchange.getRequestMethod() + " " + path
                    + " is not supported; the job runner API is read-only, use GET");
        }
        return body(path);
    }

    private Object body(String path) {
        Run run = current;
        if (run == null) {
            return new ApiError(503, "no job is attached yet; retry when the job has started");
        }
        if (path.equals(READY)) {
            RunningJob.Status status = run.job().status();
            return status == RunningJob.Status.RUNNING ? new Readiness(true, status.name())
                    : new ApiError(503, "job '" + run.job().name() + "' is " + status + ", not RUNNING");
        }
        JobMetricsSnapshot snapshot = run.job().metrics();
        String runId = run.id() + "/" + snapshot.runId();
        return path.equals(JOB) ? JobView.of(run.job(), runId) : MetricsView.of(snapshot, runId, clock.millis());
    }

    private void respond(HttpExchange exchange, Object body) throws IOException {
        JsonResponses.send(exchange, mapper, body);
    }
}
