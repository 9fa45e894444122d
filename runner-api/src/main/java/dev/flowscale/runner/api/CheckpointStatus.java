package dev.flowscale.runner.api;

/**
 * What a job's snapshots have done so far (docs/durability.md), as {@code GET /api/v1/job} shows
 * it.
 *
 * @param completed snapshots (checkpoints and savepoints) completed by this runner
 * @param failed snapshots that failed (declined, timed out, storage errors, fenced)
 * @param consecutiveFailures periodic checkpoints failed in a row since the last completed one
 * @param lastCompletedId id of the newest completed snapshot; null if none yet
 * @param lastCompletedAt when it completed (ISO-8601); null if none yet
 * @param lastCompletedPath its directory; null if none yet
 * @param lastFailureAt when the last failure happened (ISO-8601); null if none
 * @param lastFailure the last failure's message; null if none
 */
public record CheckpointStatus(
        long completed,
        long failed,
        int consecutiveFailures,
        Long lastCompletedId,
        String lastCompletedAt,
        String lastCompletedPath,
        String lastFailureAt,
        String lastFailure) {}
