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

    /** From {@code trigger} until {@code running}, and never less than the rescale's downtime. */
    static Duration between(Instant trigger, Instant put, Instant running) {
        Duration reread = Duration.between(trigger, running);
        Duration down = Duration.between(put, running);
        return reread.compareTo(down) >= 0 ? reread : down;
    }
}
