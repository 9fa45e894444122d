package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.BlockedRescale;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescalingSpec;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.DurationText;
import dev.flowscale.operator.core.ParallelismText;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A scale-up the scheduler cannot place is not looped: the executor rolls it back as soon as the
 * new pod is reported Unschedulable (not at the rescale timeout), records it in {@code
 * status.blockedScaleUp}, and tries the same parallelism again only after a wait that starts at
 * {@code spec.rescaling.retryBackoff} and doubles with each failed attempt up to {@code
 * spec.rescaling.maxRetryBackoff}. A different parallelism (the load changed) or a new spec
 * generation starts afresh. Pure: the caller passes status and time.
 */
public final class ScaleUpBackoff {
    public static final String REASON = "ScaleUpBlocked";

    private ScaleUpBackoff() {}

    /**
     * The scheduler's message when the new pod of the change under way cannot be scheduled: the
     * condition {@value RunnerWatch#CONDITION} went to Unschedulable since the change started (the
     * pod informer reports it; an older condition is about another pod).
     */
    static Optional<String> unschedulable(StreamJobStatus status) {
        PendingChange c = status.pending;
        if (c == null || c.started == null) {
            return Optional.empty();
        }
        return Conditions.find(status, RunnerWatch.CONDITION)
                .filter(
                        k ->
                                "False".equals(k.getStatus())
                                        && RunnerProblems.UNSCHEDULABLE.equals(k.getReason()))
                .filter(
                        k ->
                                k.getLastTransitionTime() != null
                                        && !Instant.parse(k.getLastTransitionTime())
                                                .isBefore(Instant.parse(c.started)))
                .map(k -> k.getMessage());
    }

    /**
     * Records the failed attempt of {@code change} in status: one more attempt, the wait doubled.
     */
    static void block(
            StreamJobStatus status, PendingChange change, RescalingSpec spec, Instant now) {
        BlockedRescale before = status.blockedScaleUp;
        boolean again = before != null && matches(before, change.to, change.generation);
        BlockedRescale b = new BlockedRescale();
        b.to = new TreeMap<>(change.to);
        b.reason = RunnerProblems.UNSCHEDULABLE;
        b.message = change.unschedulable;
        b.attempts = again ? before.attempts + 1 : 1;
        b.lastAttempt = now.toString();
        b.nextRetry = now.plus(wait(spec, b.attempts)).toString();
        b.generation = change.generation;
        status.blockedScaleUp = b;
    }

    /**
     * The wait after the {@code attempts}-th failure: retryBackoff × 2^(attempts − 1), at most
     * maxRetryBackoff.
     */
    static Duration wait(RescalingSpec spec, int attempts) {
        Duration first = DurationText.parse("spec.rescaling.retryBackoff", spec.retryBackoff);
        Duration max = DurationText.parse("spec.rescaling.maxRetryBackoff", spec.maxRetryBackoff);
        Duration wait = first;
        for (int i = 1; i < attempts && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(max) > 0 ? max : wait;
    }

    /**
     * How long {@code target} must still wait before it is tried again, or empty when it may be
     * tried now.
     */
    static Optional<Duration> remaining(
            StreamJobStatus status, Map<String, Integer> target, Long generation, Instant now) {
        BlockedRescale b = status.blockedScaleUp;
        if (b == null || !matches(b, target, generation)) {
            return Optional.empty();
        }
        Duration left = Duration.between(now, Instant.parse(b.nextRetry));
        return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
    }

    /**
     * Whether a recorded block no longer applies: the parallelism asked for or the spec changed.
     */
    static boolean stale(StreamJobStatus status, Map<String, Integer> target, Long generation) {
        return status.blockedScaleUp != null && !matches(status.blockedScaleUp, target, generation);
    }

    static boolean matches(BlockedRescale b, Map<String, Integer> target, Long generation) {
        return new TreeMap<>(b.to).equals(new TreeMap<>(target))
                && Objects.equals(b.generation, generation);
    }

    /** The Scaling condition's message while a scale-up is blocked. */
    public static String message(BlockedRescale b) {
        return "scale-up to "
                + ParallelismText.summary(b.to)
                + " is blocked: "
                + b.reason
                + ": "
                + b.message
                + "; attempt "
                + b.attempts
                + " was rolled back, the next one is not before "
                + b.nextRetry;
    }
}
