package dev.flowscale.autoscaler.realizer;

import dev.flowscale.policy.api.RescaleRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * How one rescale went: the one outcome every realizer fills, whatever its path (a job runner or
 * this JVM through a savepoint, a Flink job in place or through a savepoint). Build with {@link
 * #restart} (a stop-with-savepoint and restore; {@link #failedBecause} where it failed), or the
 * constructor.
 *
 * @param job job name
 * @param started when the realizer began stopping the job
 * @param from parallelism before, of every operator the decision changes
 * @param to parallelism the decision asked for, same operators
 * @param savepoint where the savepoint the job was stopped with is (a local folder or a URI on the
 *     cluster's file system, {@code s3://...}); empty when none was taken (or it is unknown)
 * @param downtime from the stop request until the job ran again (at the new or, after a rollback,
 *     the old parallelism); in place, from the new resource requirements
 * @param failure empty on success; otherwise what failed and where the job runs now
 * @param path how the rescale was carried out: {@link RescaleRecord#RESTART}, {@link
 *     RescaleRecord#IN_PLACE}, or "none" when it was refused before anything changed
 * @param inputCost in place: the input the rescale cost, from the trigger of the checkpoint the job
 *     restarted from until it ran again (its sources re-read what came after it)
 * @param note what was done besides (in place: how the job got a fresh checkpoint); "" if nothing
 */
public record RescaleReport(
        String job,
        Instant started,
        Map<String, Integer> from,
        Map<String, Integer> to,
        Optional<String> savepoint,
        Duration downtime,
        Optional<String> failure,
        String path,
        Optional<Duration> inputCost,
        String note) {

    public RescaleReport {
        if (job == null || started == null || downtime == null || path == null) {
            throw new RealizeException(
                    "rescale report needs a job, a start time, a downtime and a path; got "
                            + job
                            + ", "
                            + started
                            + ", "
                            + downtime
                            + ", "
                            + path);
        }
        from = Map.copyOf(from);
        to = Map.copyOf(to);
        savepoint = savepoint == null ? Optional.empty() : savepoint;
        failure = failure == null ? Optional.empty() : failure;
        inputCost = inputCost == null ? Optional.empty() : inputCost;
        note = note == null ? "" : note;
    }

    /**
     * A rescale through a local savepoint ({@link RescaleRecord#RESTART}) that ran; {@link
     * #failedBecause} makes it one that failed.
     *
     * @param savepoint null when none was taken
     */
    public static RescaleReport restart(
            String job,
            Instant started,
            Map<String, Integer> from,
            Map<String, Integer> to,
            Path savepoint,
            Duration downtime) {
        return new RescaleReport(
                job,
                started,
                from,
                to,
                Optional.ofNullable(savepoint).map(Path::toString),
                downtime,
                Optional.empty(),
                RescaleRecord.RESTART,
                Optional.empty(),
                "");
    }

    /**
     * This report as a rescale that failed: {@code reason} says what failed and where the job runs
     * now.
     */
    public RescaleReport failedBecause(String reason) {
        return with(downtime, Optional.of(reason), inputCost, note);
    }

    /**
     * This report with what the checkpoints did to an in-place rescale.
     *
     * @param downtimeToRunning where given, the downtime: from the new resource requirements until
     *     the job ran again (this report's runs from the rescale's start, checkpoint wait included)
     */
    public RescaleReport withCheckpoint(
            Optional<Duration> cost, String note, Duration downtimeToRunning) {
        return with(downtimeToRunning == null ? downtime : downtimeToRunning, failure, cost, note);
    }

    /** This report with what the realizer learns after the rescale's start. */
    private RescaleReport with(
            Duration took, Optional<String> why, Optional<Duration> cost, String what) {
        return new RescaleReport(job, started, from, to, savepoint, took, why, path, cost, what);
    }

    public boolean succeeded() {
        return failure.isEmpty();
    }

    /**
     * "count 2 -> 4, split 1 -> 2", operators in name order; "?" where the parallelism before is
     * unknown.
     */
    public String changes() {
        StringJoiner joined = new StringJoiner(", ");
        new TreeMap<>(to)
                .forEach(
                        (op, p) ->
                                joined.add(
                                        op
                                                + " "
                                                + (from.containsKey(op) ? from.get(op) : "?")
                                                + " -> "
                                                + p));
        return joined.toString();
    }

    /** One line for logs, the live view and events. */
    public String summary() {
        String through =
                savepoint.map(p -> " through savepoint " + p).orElse(inPlace() ? " in place" : "");
        String took = String.format(Locale.ROOT, "%.1f s", downtime.toMillis() / 1000.0);
        return failure.map(
                        why ->
                                "rescale of job '"
                                        + job
                                        + "' ("
                                        + changes()
                                        + ") failed after "
                                        + took
                                        + through
                                        + ": "
                                        + why)
                .orElse(
                        "job '"
                                + job
                                + "' rescaled ("
                                + changes()
                                + ")"
                                + through
                                + "; down for "
                                + took
                                + cost());
    }

    private boolean inPlace() {
        return RescaleRecord.IN_PLACE.equals(path);
    }

    /** What the rescale cost beyond its downtime, and what was done besides. */
    private String cost() {
        String input =
                inputCost
                        .map(
                                c ->
                                        String.format(
                                                Locale.ROOT,
                                                "; it cost %.1f s of input (from the restored checkpoint's trigger)",
                                                c.toMillis() / 1000.0))
                        .orElse("");
        return input + (note.isEmpty() ? "" : "; " + note);
    }

    /** The entries of {@code parallelism} for the given operators, in their order. */
    public static Map<String, Integer> restrict(
            Map<String, Integer> parallelism, Iterable<String> operators) {
        Map<String, Integer> result = new LinkedHashMap<>();
        operators.forEach(
                op -> {
                    if (parallelism.containsKey(op)) {
                        result.put(op, parallelism.get(op));
                    }
                });
        return result;
    }
}
