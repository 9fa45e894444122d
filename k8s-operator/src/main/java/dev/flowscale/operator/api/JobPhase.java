package dev.flowscale.operator.api;

/** Where a StreamJob is in its life. */
public enum JobPhase {
    /** The runner's resources are applied; the runner is not ready yet. */
    Deploying,
    /** The runner reports the job running. */
    Running,
    /** A stop-with-savepoint and restore at a new parallelism is under way. */
    Rescaling,
    /**
     * The operator cannot run the job as specified, or the runner's job failed (its restart
     * strategy gave up) or was cancelled; a Degraded or Ready condition says what to do.
     */
    Failed,
    /** spec.suspend is true; the runner is stopped. */
    Suspended,
    /**
     * The job's input ended and the runner finished it; a spec change runs it again from its start.
     */
    Finished
}
