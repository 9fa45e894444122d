package dev.flowscale.engine.runtime;

/** What a snapshot is for, which decides how its barrier acts and how a failure is counted. */
enum SnapshotKind {
    /** A checkpoint on request; its failure is counted but never fails the job over. */
    CHECKPOINT,
    /** A checkpoint from the schedule; failures in a row for too long fail the job over. */
    PERIODIC_CHECKPOINT,
    /** A savepoint while the job keeps running. */
    SAVEPOINT,
    /**
     * A savepoint after whose barrier the sources stop and the job drains (stop-with-savepoint).
     */
    STOP_SAVEPOINT,
    /**
     * A rescale's savepoint: the sources stop after the barrier and the tasks capture their state
     * for the next run instead of writing it; the files are written from the captures afterwards.
     */
    HAND_OVER_SAVEPOINT;

    /** Self-contained, taken on request, kept until deleted. */
    boolean savepoint() {
        return this == SAVEPOINT || this == STOP_SAVEPOINT || this == HAND_OVER_SAVEPOINT;
    }

    /** The sources stop after its barrier. */
    boolean stopAfter() {
        return this == STOP_SAVEPOINT || this == HAND_OVER_SAVEPOINT;
    }

    boolean periodic() {
        return this == PERIODIC_CHECKPOINT;
    }

    /** The tasks capture their state for the next run instead of writing it. */
    boolean handOver() {
        return this == HAND_OVER_SAVEPOINT;
    }

    /** How logs and errors call it. */
    String noun() {
        return savepoint() ? "savepoint" : "checkpoint";
    }
}
