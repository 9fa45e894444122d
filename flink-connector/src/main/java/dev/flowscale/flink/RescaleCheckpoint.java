package dev.flowscale.flink;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The checkpoint side of an in-place rescale. Flink's adaptive scheduler restarts a rescaled job
 * from its latest completed checkpoint, so the job's sources re-read everything since that
 * checkpoint's trigger: on the side-by-side word count, back-pressured, with aligned checkpoints
 * that took 11–58 s, each rescale re-read 29–226 s of input and aborted the checkpoint in progress.
 *
 * <p>Before the rescale ({@link #prepare}): let the job complete a fresh checkpoint, triggering one
 * ({@code POST jobs/:id/checkpoints}, Flink 1.17 on) where none is in progress, and wait at most as
 * long as the latest completed one is old (a longer wait costs more than the re-read it saves),
 * never more than a bound. Flink 2.x's adaptive scheduler then also waits for a checkpoint
 * (FLIP-461), but only {@code jobmanager.adaptive-scheduler.rescale-trigger.max-delay}, by default
 * 3 checkpoint intervals (0.9 s at the word count's 300 ms). After it ({@link #inputCost}): the
 * input the rescale cost, from the restored checkpoint's trigger until the job ran again.
 */
final class RescaleCheckpoint {
    private static final Duration LEAST_WAIT = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(200);

    /** Clocks of flowscale and the JobManager may differ this much before a restore counts. */
    private static final Duration SKEW = Duration.ofSeconds(1);

    private final FlinkJobRef job;
    private final Clock clock;

    RescaleCheckpoint(FlinkJobRef job, Clock clock) {
        this.job = job;
        this.clock = clock;
    }

    /**
     * What the job's checkpoints were before the rescale, and what was done about them.
     *
     * @param stats the statistics just before the rescale; empty where Flink did not answer
     * @param note for the rescale's report: the wait and its outcome
     */
    record Before(Optional<CheckpointStats> stats, String note) {}

    /**
     * Waits, up to {@code most}, for a checkpoint completed after now; not at all where the one in
     * progress (or the one triggered now) would take longer than that, judged by how long the
     * latest completed one took: a back-pressured job whose aligned checkpoints take minutes
     * re-reads its input whatever the wait, and the wait only delays the rescale.
     */
    Before prepare(Duration most) {
        CheckpointStats now;
        try {
            now = CheckpointStats.read(job);
        } catch (FlinkConnectorException e) {
            return new Before(Optional.empty(), "checkpoints unknown (" + e.getMessage() + ")");
        }
        Instant start = clock.instant();
        Optional<Duration> age = now.age(start);
        Duration bound = min(most, age.map(a -> max(a, LEAST_WAIT)).orElse(most));
        Optional<Instant> expected =
                now.latestDuration()
                        .map(
                                d ->
                                        now.inProgressTrigger()
                                                .orElse(start)
                                                .plus(d.multipliedBy(3).dividedBy(2)));
        if (expected.filter(e -> e.isAfter(start.plus(bound))).isPresent()) {
            return new Before(
                    Optional.of(now),
                    String.format(
                            "did not wait for a checkpoint: the next would complete in about %.0f s (the"
                                    + " latest took %.0f s), later than a wait of %.1f s%s",
                            seconds(Duration.between(start, expected.get())),
                            seconds(now.latestDuration().orElseThrow()),
                            seconds(bound),
                            was(age)));
        }
        String triggered = now.inProgress() > 0 ? "" : trigger();
        return await(now, start, start.plus(bound), age, triggered);
    }

    private Before await(
            CheckpointStats now,
            Instant start,
            Instant deadline,
            Optional<Duration> age,
            String triggered) {
        CheckpointStats seen = now;
        while (clock.instant().isBefore(deadline)) {
            pause();
            seen = readOr(seen);
            if (seen.latestCompleted() > now.latestCompleted()) {
                return new Before(
                        Optional.of(seen),
                        String.format(
                                "waited %.1f s for checkpoint %d to complete first%s",
                                seconds(Duration.between(start, clock.instant())),
                                seen.latestCompleted(),
                                was(age)));
            }
        }
        return new Before(
                Optional.of(seen),
                String.format(
                        "no checkpoint completed within %.1f s%s%s: the job restarts from an older one",
                        seconds(Duration.between(start, deadline)), was(age), triggered));
    }

    /**
     * The input the rescale cost: from the trigger of the checkpoint the job restored from until
     * {@code running}. When Flink's statistics do not show that restore yet (they are cached for a
     * few seconds), the latest checkpoint completed before the rescale: the job restarts from it or
     * from a newer one, so the cost is at most that. Empty when the job has no checkpoint.
     */
    Optional<Duration> inputCost(Before before, Instant put, Instant running) {
        Optional<Instant> from =
                readNow()
                        .flatMap(
                                after ->
                                        restoredTrigger(
                                                job, after, put, before.stats().orElse(null)));
        return from.or(() -> before.stats().flatMap(CheckpointStats::latestTrigger))
                .map(t -> RescaleInputCost.between(t, put, running));
    }

    /**
     * The trigger of the checkpoint the job restored from at or after {@code put} (within the
     * clocks' skew), from {@code after}, else {@code before} (may be null), else the checkpoint's
     * own details; empty when no such restore shows yet or its trigger is unknown.
     */
    static Optional<Instant> restoredTrigger(
            FlinkJobRef job, CheckpointStats after, Instant put, CheckpointStats before) {
        return after.restored()
                .filter(r -> !r.at().isBefore(put.minus(SKEW)))
                .flatMap(
                        r ->
                                after.triggerOf(r.id())
                                        .or(
                                                () ->
                                                        Optional.ofNullable(before)
                                                                .flatMap(b -> b.triggerOf(r.id())))
                                        .or(() -> details(job, r.id())));
    }

    private static Optional<Instant> details(FlinkJobRef job, long id) {
        try {
            long at =
                    job.rest()
                            .get("jobs/" + job.jobId() + "/checkpoints/details/" + id)
                            .path("trigger_timestamp")
                            .asLong(0);
            return at > 0 ? Optional.of(Instant.ofEpochMilli(at)) : Optional.empty();
        } catch (FlinkConnectorException e) {
            return Optional.empty();
        }
    }

    /** Triggers a checkpoint; "" when Flink took it, else why not, for the note. */
    private String trigger() {
        try {
            job.rest().post("jobs/" + job.jobId() + "/checkpoints", Map.of());
            return "";
        } catch (FlinkConnectorException e) {
            return " (none could be triggered: " + e.getMessage() + ")";
        }
    }

    private Optional<CheckpointStats> readNow() {
        try {
            return Optional.of(CheckpointStats.read(job));
        } catch (FlinkConnectorException e) {
            return Optional.empty(); // the statistics before the rescale still bound the cost
        }
    }

    private CheckpointStats readOr(CheckpointStats last) {
        try {
            return CheckpointStats.read(job);
        } catch (FlinkConnectorException e) {
            return last;
        }
    }

    private static String was(Optional<Duration> age) {
        return age.map(a -> String.format(" (the latest was %.1f s old)", seconds(a)))
                .orElse(" (none had completed)");
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkConnectorException("interrupted while waiting for a checkpoint", e);
        }
    }
}
