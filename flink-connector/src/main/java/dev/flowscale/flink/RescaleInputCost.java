package dev.flowscale.flink;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The input an in-place rescale of a Flink job cost, read after it ended: Flink's adaptive
 * scheduler restarts the job from its latest completed checkpoint, so its sources re-read
 * everything since that checkpoint's trigger. For a caller that cannot wait inside the rescale (the
 * operator's reconciler asks once a pass until Flink's statistics show the restore).
 */
public final class RescaleInputCost {
    private RescaleInputCost() {}

    /**
     * The input the rescale of {@code jobId} cost, from the trigger of the checkpoint it restored
     * from at or after {@code put} until {@code running}; empty while Flink's checkpoint statistics
     * (cached for a few seconds) show no such restore yet, or cannot tell its trigger.
     *
     * @param put when the rescale was asked for (the new resource requirements put)
     * @param running when the job ran every subtask at the new parallelism
     * @throws FlinkConnectorException when Flink does not answer
     */
    public static Optional<Duration> read(
            FlinkRestClient rest, String jobId, Instant put, Instant running) {
        FlinkJobRef job = new FlinkJobRef(rest, jobId);
        return RescaleCheckpoint.restoredTrigger(job, CheckpointStats.read(job), put, null)
                .map(trigger -> between(trigger, put, running));
    }

    /**
     * The earliest point an in-place restart of {@code jobId} resumes its input from: the trigger
     * of its latest completed checkpoint (it restarts from that one or a newer one), or, before any
     * completed, the job's start (its sources start over). Read before an in-place rescale, it
     * bounds what the rescale costs; empty when Flink names neither.
     *
     * @throws FlinkConnectorException when Flink does not answer
     */
    public static Optional<Instant> resumesAtLeastFrom(FlinkRestClient rest, String jobId) {
        return CheckpointStats.read(new FlinkJobRef(rest, jobId))
                .latestTrigger()
                .or(
                        () -> {
                            long start = rest.get("jobs/" + jobId).path("start-time").asLong(0);
                            return start > 0
                                    ? Optional.of(Instant.ofEpochMilli(start))
                                    : Optional.empty();
                        });
    }

    /**
     * The most an in-place rescale cost when the checkpoint it restored from is not known: from
     * {@code resumesFrom} ({@link #resumesAtLeastFrom}, read before it) until {@code running},
     * never less than its downtime.
     */
    public static Duration atMost(Instant resumesFrom, Instant put, Instant running) {
        return between(resumesFrom, put, running);
    }

    /** From {@code trigger} until {@code running}, and never less than the rescale's downtime. */
    static Duration between(Instant trigger, Instant put, Instant running) {
        Duration reread = Duration.between(trigger, running);
        Duration down = Duration.between(put, running);
        return reread.compareTo(down) >= 0 ? reread : down;
    }
}
