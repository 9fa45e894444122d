package dev.flowscale.engine.runner;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.metrics.HttpReply;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.ApiError;
import dev.flowscale.runner.api.Readiness;
import dev.flowscale.runner.api.RunnerPaths;
import java.time.Clock;
import java.util.UUID;

/**
 * The job runner's read-only JSON API (docs/runner-api.md): {@code GET /api/v1/job} ({@link
 * dev.flowscale.runner.api.JobView}), {@code GET /api/v1/metrics} ({@link
 * dev.flowscale.runner.api.MetricsView}) and {@code GET /api/v1/ready} (200 while the job is
 * RUNNING, 503 otherwise: a readiness probe). The run id joins a random id per job handed to {@link
 * #attach} with the engine's id of the current execution, so it changes whenever counters start
 * again at zero: a new job, a restart after a failure, a rescale. Routed on a {@link
 * MetricsHttpServer} by {@link #serveOn}, which answers unknown paths and methods.
 */
public final class JobRunnerApi {
    private final Clock clock;
    private volatile Run current;

    private record Run(RunningJob job, String id) {}

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
        for (String path : new String[] {RunnerPaths.JOB, RunnerPaths.METRICS, RunnerPaths.READY}) {
            server.route("GET", path, call -> reply(body(path)));
        }
        return this;
    }

    private static HttpReply reply(Object body) {
        return body instanceof ApiError e
                ? HttpReply.error(e.status(), e.error())
                : HttpReply.json(200, body);
    }

    private Object body(String path) {
        Run run = current;
        if (run == null) {
            return new ApiError(503, "no job is attached yet; retry when the job has started");
        }
        if (path.equals(RunnerPaths.READY)) {
            RunningJob.Status status = run.job().status();
            return status == RunningJob.Status.RUNNING
                    ? Readiness.running()
                    : new ApiError(
                            503, "job '" + run.job().name() + "' is " + status + ", not RUNNING");
        }
        JobMetricsSnapshot snapshot = run.job().metrics();
        String runId = run.id() + "/" + snapshot.runId();
        return path.equals(RunnerPaths.JOB)
                ? RunnerViews.job(run.job(), runId)
                : RunnerViews.metrics(snapshot, runId, clock.millis());
    }
}
