package dev.flowscale.runner.api;

import java.util.List;

/**
 * Every path the job runner serves (docs/runner-api.md). Paths match exactly: no trailing slash, no
 * prefixes; query strings are ignored.
 */
public final class RunnerPaths {
    /** GET: the Prometheus text exposition of the runner's meters ({@link MetricName}). */
    public static final String PROMETHEUS = "/metrics";

    /** GET: liveness; {@code {"status": "UP"}} while the process serves. */
    public static final String HEALTH = "/health";

    /** GET: the job ({@link JobView}); 503 before a job is attached. */
    public static final String JOB = "/api/v1/job";

    /**
     * GET: cumulative counters of every instance ({@link MetricsView}); 503 before a job is
     * attached.
     */
    public static final String METRICS = "/api/v1/metrics";

    /** GET: readiness ({@link Readiness}): 200 while the job is RUNNING, 503 otherwise. */
    public static final String READY = "/api/v1/ready";

    /**
     * POST: a savepoint while the job keeps running ({@link ControlRequest} in, {@link
     * SavepointView} out).
     */
    public static final String SAVEPOINT = "/api/v1/savepoint";

    /**
     * POST: stop the job with a savepoint ({@link ControlRequest} in, {@link SavepointView} out).
     */
    public static final String STOP_WITH_SAVEPOINT = "/api/v1/stop-with-savepoint";

    /**
     * POST: rescale inside the runner process ({@link RescaleRequest} in, {@link RescaleView} out).
     */
    public static final String RESCALE = "/api/v1/rescale";

    /** GET: the newest complete snapshot ({@link SnapshotView}); 404 when there is none yet. */
    public static final String LATEST_SNAPSHOT = "/api/v1/snapshots/latest";

    /** Every path above, in the order of the contract's table. */
    public static final List<String> ALL =
            List.of(
                    PROMETHEUS,
                    HEALTH,
                    JOB,
                    METRICS,
                    READY,
                    SAVEPOINT,
                    STOP_WITH_SAVEPOINT,
                    RESCALE,
                    LATEST_SNAPSHOT);

    private RunnerPaths() {}
}
