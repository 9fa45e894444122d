package dev.flowscale.engine.runner;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.metrics.HttpCall;
import dev.flowscale.engine.metrics.HttpReply;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.ApiError;
import dev.flowscale.runner.api.RunnerPaths;
import dev.flowscale.runner.api.SnapshotView;
import java.nio.file.Path;

/**
 * {@code GET /api/v1/snapshots/latest}: the newest complete snapshot of the job and the job's
 * status. A controller whose stop-with-savepoint reply was lost reads the savepoint of the stopped
 * runner here and restarts the job from it; 404 when the job has no snapshot yet.
 */
public final class LatestSnapshotApi {
    private final RunningJob job;

    public LatestSnapshotApi(RunningJob job) {
        if (job == null) {
            throw new EngineException("latest snapshot API needs a job, got null");
        }
        this.job = job;
    }

    /** Routes {@code GET /api/v1/snapshots/latest}; it never waits behind control work. */
    public LatestSnapshotApi serveOn(MetricsHttpServer server) {
        server.route("GET", RunnerPaths.LATEST_SNAPSHOT, this::handle);
        return this;
    }

    HttpReply handle(HttpCall call) {
        Path latest = job.latestSnapshot();
        return latest == null
                ? HttpReply.json(
                        404,
                        new ApiError(
                                404,
                                "job '"
                                        + job.name()
                                        + "' has no complete snapshot yet ("
                                        + job.status()
                                        + ")"))
                : HttpReply.json(
                        200,
                        new SnapshotView(latest.toAbsolutePath().toString(), job.status().name()));
    }
}
