package dev.flowscale.engine.runtime;

/** What a snapshot is for, which decides how its barrier acts and how a failure is counted. */
enum SnapshotKind {
    /** A checkpoint on request; its failure is counted but never fails the job over. */
    CHECKPOINT(false, false, false, false),
    /** A checkpoint from the schedule; failures in a row for too long fail the job over. */
    PERIODIC_CHECKPOINT(false, false, true, false),
    /** A savepoint while the job keeps running. */
    SAVEPOINT(true, false, false, false),
    /**
     * A savepoint after whose barrier the sources stop and the job drains (stop-with-savepoint).
     */
    STOP_SAVEPOINT(true, true, false, false),
    /**
     * A rescale's savepoint: the sources stop after the barrier and the tasks capture their state
     * for the next run instead of writing it; the files are written from the captures afterwards.
     */
    HAND_OVER_SAVEPOINT(true, true, false, true);

    private final boolean savepoint;
    private final boolean stopAfter;
    private final boolean periodic;
    private final boolean handOver;

    SnapshotKind(boolean savepoint, boolean stopAfter, boolean periodic, boolean handOver) {
        this.savepoint = savepoint;
        this.stopAfter = stopAfter;
        this.periodic = periodic;
        this.handOver = handOver;
    }

    boolean savepoint() {
        return savepoint;
    }

    boolean stopAfter() {
        return stopAfter;
    }

    boolean periodic() {
        return periodic;
    }

    boolean handOver() {
        return handOver;
    }

    /** How logs and errors call it. */
    String noun() {
        return savepoint ? "savepoint" : "checkpoint";
    }
}
