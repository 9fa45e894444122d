package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * A scale-down applies only after it has been recommended continuously (every decision since, at
 * the same current parallelism) for the configured delay, and then takes the highest recommendation
 * of that period. Scale-ups are never delayed. Shared with the comparison policies.
 */
public final class ScaleDownDelay {

    private ScaleDownDelay() {}

    public static OperatorDecision apply(
            OperatorDecision op, ScalingHistory history, Instant now, Duration delay) {
        return apply(op, history, now, delay, d -> true);
    }

    /**
     * As {@link #apply(OperatorDecision, ScalingHistory, Instant, Duration)}, counting only past
     * decisions that {@code sameLoad} accepts: a load change restarts the delay, so a scale-down
     * recommended by noise before the change cannot lend its streak or its size to one after it.
     */
    public static OperatorDecision apply(
            OperatorDecision op,
            ScalingHistory history,
            Instant now,
            Duration delay,
            Predicate<ScalingDecision> sameLoad) {
        if (op.recommendedParallelism() >= op.currentParallelism() || delay.isZero()) {
            return op;
        }
        Instant periodStart = now.minus(delay);
        Instant streakStart = now;
        int highest = op.recommendedParallelism();
        List<ScalingDecision> decisions = history.decisions();
        for (int i = decisions.size() - 1; i >= 0; i--) {
            OperatorDecision past = decisions.get(i).operators().get(op.operatorId());
            if (!recommendsScaleDown(past, op.currentParallelism())
                    || !sameLoad.test(decisions.get(i))) {
                break;
            }
            streakStart = decisions.get(i).time();
            if (!streakStart.isBefore(periodStart)) {
                highest = Math.max(highest, past.recommendedParallelism());
            }
        }
        Duration recommendedFor = Duration.between(streakStart, now);
        if (recommendedFor.compareTo(delay) < 0) {
            return op.withNewParallelism(
                    op.currentParallelism(),
                    "scale-down to "
                            + op.recommendedParallelism()
                            + " delayed: recommended for "
                            + recommendedFor.toSeconds()
                            + " s of "
                            + delay.toSeconds()
                            + " s");
        }
        return op.withNewParallelism(
                highest,
                "scale-down recommended for "
                        + recommendedFor.toSeconds()
                        + " s; applying the highest recommendation of the last "
                        + delay.toSeconds()
                        + " s: "
                        + highest);
    }

    private static boolean recommendsScaleDown(OperatorDecision past, int current) {
        return past != null
                && past.currentParallelism() == current
                && past.recommendedParallelism() < current;
    }

    public static boolean delayed(OperatorDecision op) {
        return op.recommendedParallelism() < op.currentParallelism() && !op.changes();
    }
}
