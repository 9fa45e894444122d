package dev.flowscale.runner.api;

/**
 * The runner's readiness ({@code GET /api/v1/ready}): ready exactly while the job is RUNNING. The
 * runner answers 200 {@code {"ready": true, "status": "RUNNING"}} then, and 503 with an {@link
 * ApiError} while the job starts, rescales, restarts or has ended; a Kubernetes readiness probe on
 * this path therefore takes a rescaling runner out of its Service until it runs again.
 *
 * @param ready whether the job runs
 * @param status the job's status when ready; otherwise the runner's explanation
 */
public record Readiness(boolean ready, String status) {
    /** The only status in which a runner is ready. */
    public static final String RUNNING = "RUNNING";

    /** The body the runner answers while ready. */
    public static Readiness running() {
        return new Readiness(true, RUNNING);
    }
}
