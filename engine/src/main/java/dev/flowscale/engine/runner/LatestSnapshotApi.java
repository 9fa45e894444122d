package dev.flowscale.engine.runner;

import dev.flowscale.engine.metrics.HttpCall;
import dev.flowscale.engine.metrics.HttpReply;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.runtime.RunningJob;
import java.nio.file.Path;

/**
 * {@code GET /api/v1/snapshots/latest}: the newest complete snapshot of the job and the job's
 * status. A controller whose stop-with-savepoint reply was lost reads the savepoint of the
 * stopped runner here and restarts the job from it; 404 when the job has no snapshot yet.
 */
public final class LatestSnapshotApi {
    /** Register the handler at this path. */
    public static final String LATEST = "/api/v1/snapshots/latest";

    private final RunningJob job;

    /** The body of an answer: the snapshot's directory and the job's status (RUNNING, STOPPED, ...). */
    public record SnapshotView(String snapshot, String status) {
    }

    public LatestSnapshotApi(RunningJob job) {
        if (job == null) {
            throw new EngineException("latest snapshot API needs a job, got null");
        }
        this.job = job;
    }

    /** Routes {@code GET} {@value #LATEST}; it never waits behind control work. */
    public LatestSnapshotApi serveOn(MetricsHttpServer server) {
        server.route("GET", LATEST, this::handle);
        return this;
    }

    HttpReply handle(HttpCall call) {
        Path latest = job.latestSnapshot();
        return latest == null
                ? HttpReply.json(404, new ApiError(404, "job '" + job.name() + "' has no complete snapshot yet ("
                        + job.status() + ")"))
                : HttpReply.json(200, new SnapshotView(latest.toAbsolutePath().toString(), job.status().name()));
    }
}
