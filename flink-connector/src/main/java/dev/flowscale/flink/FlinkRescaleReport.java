package dev.flowscale.flink;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How one rescale of a Flink job went. Not the autoscaler's {@code RescaleReport}: a Flink
 * savepoint is a URI on the cluster's file system ({@code s3://...}, {@code hdfs://...}), not a
 * local path, and the path taken (in place or through a savepoint) is part of the story.
 *
 * @param path {@code in-place} (adaptive scheduler) or {@code restart} (stop-with-savepoint and
 *     resubmission)
 * @param from parallelism before, per operator
 * @param to parallelism asked for, per operator
 * @param savepoint the savepoint the job was stopped with (savepoint path)
 * @param downtime from the request until the job ran again (in place: from the new resource
 *     requirements, after any wait for a checkpoint, which the {@code checkpoint} note gives)
 * @param failure empty on success; else what failed and where the job runs now
 * @param inputCost in place: the input the rescale cost, from the trigger of the checkpoint the job
 *     restarted from until it ran again (its sources re-read what came after it)
 * @param checkpoint in place: what was done to restart from a fresh checkpoint; "" otherwise
 */
public record FlinkRescaleReport(
        String job,
        String path,
        Map<String, Integer> from,
        Map<String, Integer> to,
        Optional<String> savepoint,
        Duration downtime,
        Optional<String> failure,
        Optional<Duration> inputCost,
        String checkpoint) {

    /**
     * This report with what the checkpoints did to the rescale.
     *
     * @param downtimeToRunning where given, the downtime: from the new resource requirements until
     *     the job ran again (the report's own runs from the rescale's start, checkpoint wait
     *     included)
     */
    FlinkRescaleReport withCheckpoint(
            Optional<Duration> cost, String note, Duration downtimeToRunning) {
        return new FlinkRescaleReport(
                job,
                path,
                from,
                to,
                savepoint,
                downtimeToRunning == null ? downtime : downtimeToRunning,
                failure,
                cost,
                note);
    }

    public boolean succeeded() {
        return failure.isEmpty();
    }

    public String summary() {
        String how = savepoint.map(s -> " through savepoint " + s).orElse(" " + path);
        String took = String.format("%.1f s", downtime.toMillis() / 1000.0);
        return failure.map(
                        why ->
                                "rescale of Flink job '"
                                        + job
                                        + "' to "
                                        + to
                                        + " failed after "
                                        + took
                                        + how
                                        + ": "
                                        + why)
                .orElse(
                        "Flink job '"
                                + job
                                + "' rescaled "
                                + from
                                + " -> "
                                + to
                                + how
                                + " in "
                                + took
                                + cost());
    }

    /** What the rescale cost beyond its downtime, and the checkpoint it restarted from. */
    private String cost() {
        String input =
                inputCost
                        .map(
                                c ->
                                        String.format(
                                                "; it cost %.1f s of input (from the restored checkpoint's trigger)",
                                                c.toMillis() / 1000.0))
                        .orElse("");
        return input + (checkpoint.isEmpty() ? "" : "; " + checkpoint);
    }
}
