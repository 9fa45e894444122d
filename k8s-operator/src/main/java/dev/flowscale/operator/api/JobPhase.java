package dev.flowscale.operator.api;

/** Where a StreamJob is in its life. */
public enum JobPhase {
    /** The runner's resources are applied; the runner is not ready yet. */
    Deploying,
    /** The runner reports the job running. */
    Running,
    /** A stop-with-savepoint and restore at a new parallelism is under way. */
    Rescaling,
    /** The operator cannot run the job as specified; a Degraded condition says what to fix. */
    Failed,
    /** spec.suspend is true; the runner is stopped. */
    Suspended
}
