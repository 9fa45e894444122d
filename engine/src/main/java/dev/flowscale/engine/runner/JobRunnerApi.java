package dev.flowscale.engine.runner;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.metrics.HttpReply;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import java.time.Clock;
import java.util.UUID;

/**
 * The job runner's read-only JSON API (docs/runner-api.md): {@code GET /api/v1/job}
 * ({@link JobView}), {@code GET /api/v1/metrics} ({@link MetricsView}) and {@code GET /api/v1/ready}
 * (200 while the job is RUNNING, 503 otherwise: a readiness probe). The run id joins a
 * random id per job handed to {@link #attach} with the engine's id of the current execution, so
 * it changes whenever counters start again at zero: a new job, a restart after a failure, a
 * rescale. Routed on a {@link MetricsHttpServer} by {@link #serveOn}, which answers unknown
 * paths and methods.
 */
public final class JobRunnerApi {
    public static final String JOB = "/api/v1/job";
    public static final String METRICS = "/api/v1/metrics";
    public static final String READY = "/api/v1/ready";

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

    /** Routes the read-only endpoints on {@code server}. */
    public JobRunnerApi serveOn(MetricsHttpServer server) {
        for (String path : new String[] {JOB, METRICS, READY}) {
            server.route("GET", path, call -> reply(body(path)));
        }
        return this;
    }

    private static HttpReply reply(Object body) {
        return body instanceof ApiError e ? HttpReply.error(e.status(), e.error()) : HttpReply.json(200, body);
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
}
