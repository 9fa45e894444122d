package dev.flowscale.engine.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.runtime.RunningJob;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code GET /api/v1/snapshots/latest}: the newest complete snapshot of the job and the job's
 * status. A controller whose stop-with-savepoint reply was lost reads the savepoint of the
 * stopped runner here and restarts the job from it; 404 when the job has no snapshot yet.
 */
public final class LatestSnapshotApi implements HttpHandler {
    /** Register the handler at this path. */
    public static final String LATEST = "/api/v1/snapshots/latest";

    private final ObjectMapper mapper = new ObjectMapper();
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

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        SingleEndpoint.serve(exchange, mapper, LATEST, "GET", this::answer);
    }

    private Object answer() {
        Path latest = job.latestSnapshot();
        return latest == null
                ? new ApiError(404, "job '" + job.name() + "' has no complete snapshot yet (" + job.status() + ")")
                : new SnapshotView(latest.toAbsolutePath().toString(), job.status().name());
    }
}
