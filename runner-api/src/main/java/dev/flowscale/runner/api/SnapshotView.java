package dev.flowscale.runner.api;

/**
 * The body of {@code GET /api/v1/snapshots/latest}: the newest complete snapshot's directory and
 * the job's status (RUNNING, STOPPED, ...). A controller whose stop reply was lost restarts the job
 * from it.
 */
public record SnapshotView(String snapshot, String status) {}
