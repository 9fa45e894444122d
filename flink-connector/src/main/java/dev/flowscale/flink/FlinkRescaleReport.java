package dev.flowscale.flink;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How one rescale of a Flink job went. Not the reconfigurator's {@code RescaleReport}: a Flink
 * savepoint is a URI on the cluster's file system ({@code s3://...}, {@code hdfs://...}), not a
 * local path, and the path taken (in place or through a savepoint) is part of the story.
 *
 * @param path {@code in-place} (adaptive scheduler) or {@code restart} (stop-with-savepoint and
 *     resubmission)
 * @param from parallelism before, per operator
 * @param to parallelism asked for, per operator
 * @param savepoint the savepoint the job was stopped with (savepoint path)
 * @param downtime from the request until the job ran again
 * @param failure empty on success; else what failed and where the job runs now
 */
public record FlinkRescaleReport(
        String job,
        String path,
        Map<String, Integer> from,
        Map<String, Integer> to,
        Optional<String> savepoint,
        Duration downtime,
        Optional<String> failure) {

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
                                + took);
    }
}
