package dev.flowscale.autoscaler.realizer;

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
 * How one rescale went. Build with {@link #succeeded} or {@link #failed}.
 *
 * @param job job name
 * @param started when the realizer began stopping the job
 * @param from parallelism before, of every operator the decision changes
 * @param to parallelism the decision asked for, same operators
 * @param savepoint the savepoint the job was stopped with; empty when none was taken (or it is
 *     unknown)
 * @param downtime from the stop request until the job ran again (at the new or, after a rollback,
 *     the old parallelism)
 * @param failure empty on success; otherwise what failed and where the job runs now
 */
public record RescaleReport(
        String job,
        Instant started,
        Map<String, Integer> from,
        Map<String, Integer> to,
        Optional<Path> savepoint,
        Duration downtime,
        Optional<String> failure) {

    public RescaleReport {
        if (job == null || started == null || downtime == null) {
            throw new RealizeException(
                    "rescale report needs a job, a start time and a downtime; got "
                            + job
                            + ", "
                            + started
                            + ", "
                            + downtime);
        }
        from = Map.copyOf(from);
        to = Map.copyOf(to);
        savepoint = savepoint == null ? Optional.empty() : savepoint;
        failure = failure == null ? Optional.empty() : failure;
    }

    public static RescaleReport succeeded(
            String job,
            Instant started,
            Map<String, Integer> from,
            Map<String, Integer> to,
            Path savepoint,
            Duration downtime) {
        return new RescaleReport(
                job, started, from, to, Optional.ofNullable(savepoint), downtime, Optional.empty());
    }

    public static RescaleReport failed(
            String job,
            Instant started,
            Map<String, Integer> from,
            Map<String, Integer> to,
            Path savepoint,
            Duration downtime,
            String reason) {
        return new RescaleReport(
                job,
                started,
                from,
                to,
                Optional.ofNullable(savepoint),
                downtime,
                Optional.of(reason));
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
        String through = savepoint.map(p -> " through savepoint " + p).orElse("");
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
                                + took);
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
