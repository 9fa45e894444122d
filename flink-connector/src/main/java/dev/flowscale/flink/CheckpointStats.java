package dev.flowscale.flink;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A Flink job's checkpoints as {@code GET jobs/:id/checkpoints} shows them: the latest completed
 * one, how many are in progress or failed, the one the job last restored from, and the trigger
 * times of the recent ones ({@code history}). An in-place rescale restarts the job from its latest
 * completed checkpoint, so its sources re-read what came after that checkpoint's trigger.
 *
 * @param latestCompleted the latest completed checkpoint's id; -1 before the first
 * @param latestTrigger when it was triggered (the point its sources' offsets are from)
 * @param latestDuration how long it took end to end
 * @param inProgress checkpoints in progress now
 * @param inProgressTrigger when the newest checkpoint in progress was triggered, where the history
 *     shows one
 * @param failed checkpoints failed so far
 * @param restored the checkpoint the job last restored from, and when
 * @param triggers the trigger times of the checkpoints in Flink's recent history, by id
 */
record CheckpointStats(
        long latestCompleted,
        Optional<Instant> latestTrigger,
        Optional<Duration> latestDuration,
        int inProgress,
        Optional<Instant> inProgressTrigger,
        long failed,
        Optional<Restore> restored,
        Map<Long, Instant> triggers) {

    /** A restore: the checkpoint's id and when the job restored from it. */
    record Restore(long id, Instant at) {}

    static CheckpointStats read(FlinkJobRef job) {
        return parse(job.rest().get("jobs/" + job.jobId() + "/checkpoints"));
    }

    static CheckpointStats parse(JsonNode answer) {
        JsonNode completed = answer.path("latest").path("completed");
        JsonNode restore = answer.path("latest").path("restored");
        Map<Long, Instant> triggers = new LinkedHashMap<>();
        Optional<Instant> inProgressTrigger = Optional.empty();
        for (JsonNode c : answer.path("history")) {
            if (c.path("trigger_timestamp").asLong(0) > 0) {
                Instant at = Instant.ofEpochMilli(c.path("trigger_timestamp").asLong());
                triggers.put(c.path("id").asLong(), at);
                if ("IN_PROGRESS".equals(c.path("status").asText())
                        && inProgressTrigger.filter(t -> t.isAfter(at)).isEmpty()) {
                    inProgressTrigger = Optional.of(at);
                }
            }
        }
        boolean hasCompleted = completed.isObject() && completed.has("id");
        return new CheckpointStats(
                hasCompleted ? completed.path("id").asLong() : -1,
                hasCompleted && completed.path("trigger_timestamp").asLong(0) > 0
                        ? Optional.of(
                                Instant.ofEpochMilli(completed.path("trigger_timestamp").asLong()))
                        : Optional.empty(),
                hasCompleted && completed.has("end_to_end_duration")
                        ? Optional.of(
                                Duration.ofMillis(completed.path("end_to_end_duration").asLong()))
                        : Optional.empty(),
                answer.path("counts").path("in_progress").asInt(0),
                inProgressTrigger,
                answer.path("counts").path("failed").asLong(0),
                restore.isObject() && restore.has("id")
                        ? Optional.of(
                                new Restore(
                                        restore.path("id").asLong(),
                                        Instant.ofEpochMilli(
                                                restore.path("restore_timestamp").asLong())))
                        : Optional.empty(),
                Map.copyOf(triggers));
    }

    /** How old the latest completed checkpoint is at {@code now}; empty before the first. */
    Optional<Duration> age(Instant now) {
        return latestTrigger.map(t -> Duration.between(t, now));
    }

    /** Older than this at a sample, the latest checkpoint makes a rescale in place costly. */
    static final Duration SLOW = Duration.ofSeconds(10);

    /**
     * For a decision's reasons: when the latest completed checkpoint is older than {@link #SLOW} at
     * {@code now}, what that does to a rescale in place, and the fix on the job's side.
     */
    Optional<String> slowNote(Instant now) {
        return age(now).filter(a -> a.compareTo(SLOW) > 0)
                .map(
                        a ->
                                String.format(
                                        "Flink checkpoints are slow: the latest completed one was %.0f s old at the"
                                                + " last sample%s; a rescale in place restarts the job from its latest"
                                                + " checkpoint and re-reads the input since, far more than the seconds"
                                                + " it is down, so flowscale lets a fresh checkpoint complete first"
                                                + " (waiting at most that long) and plans with the input its rescales"
                                                + " cost; checkpoints that complete under backpressure (unaligned, or"
                                                + " execution.checkpointing.aligned-checkpoint-timeout) keep a rescale cheap",
                                        a.toMillis() / 1000.0,
                                        latestDuration
                                                .map(
                                                        d ->
                                                                String.format(
                                                                        " (it took %.0f s end to end)",
                                                                        d.toMillis() / 1000.0))
                                                .orElse("")));
    }

    /** When the checkpoint {@code id} was triggered, where these statistics tell. */
    Optional<Instant> triggerOf(long id) {
        return id == latestCompleted && latestTrigger.isPresent()
                ? latestTrigger
                : Optional.ofNullable(triggers.get(id));
    }
}
