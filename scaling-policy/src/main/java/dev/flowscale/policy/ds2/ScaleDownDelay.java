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
        return apply(op, history, now, delay, new SameLoadRun(history.decisions(), sameLoad));
    }

    /**
     * As {@link #apply(OperatorDecision, ScalingHistory, Instant, Duration, Predicate)}, with the
     * run of decisions at the current load shared by every operator of one decision: the streak is
     * read from the history's index, so the work per operator is the decisions within the delay,
     * however long the streak.
     */
    static OperatorDecision apply(
            OperatorDecision op,
            ScalingHistory history,
            Instant now,
            Duration delay,
            SameLoadRun sameLoad) {
        if (op.recommendedParallelism() >= op.currentParallelism() || delay.isZero()) {
            return op;
        }
        Instant periodStart = now.minus(delay);
        List<ScalingDecision> decisions = history.decisions();
        int start =
                sameLoad.start(
                        history.index()
                                .scaleDownRunStart(op.operatorId(), op.currentParallelism()));
        Instant streakStart = start < decisions.size() ? decisions.get(start).time() : now;
        int highest = op.recommendedParallelism();
        // decisions are in time order: those within the delay are the latest of the streak
        for (int i = decisions.size() - 1;
                i >= start && !decisions.get(i).time().isBefore(periodStart);
                i--) {
            highest =
                    Math.max(
                            highest,
                            decisions
                                    .get(i)
                                    .operators()
                                    .get(op.operatorId())
                                    .recommendedParallelism());
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

    /**
     * The operator sized for the highest recommendation of the decisions within the delay at the
     * current load and parallelism, where that is above its plan: a trim lowers operators to the
     * highest recommendation of the delay, so the operators it keeps or raises take the same
     * decisions' highest. Sized on one window instead, the first window of a step down (mostly at
     * the old load) passes a trim the delay's own windows refused, and the trim sized wholly at the
     * new load follows it: two trims for one load change.
     */
    static OperatorDecision highestOfDelay(
            OperatorDecision op,
            ScalingHistory history,
            Instant now,
            Duration delay,
            SameLoadRun sameLoad) {
        List<ScalingDecision> decisions = history.decisions();
        Instant periodStart = now.minus(delay);
        int floor = decisions.size();
        while (floor > 0 && !decisions.get(floor - 1).time().isBefore(periodStart)) {
            floor--;
        }
        int highest = op.newParallelism();
        int start = sameLoad.start(floor);
        for (int i = decisions.size() - 1; i >= start; i--) {
            OperatorDecision then = decisions.get(i).operators().get(op.operatorId());
            if (then == null || then.currentParallelism() != op.currentParallelism()) {
                break;
            }
            highest = Math.max(highest, then.recommendedParallelism());
        }
        return highest > op.newParallelism()
                ? op.withNewParallelism(
                        highest,
                        "raised to "
                                + highest
                                + ", the highest recommendation of the last "
                                + delay.toSeconds()
                                + " s at this load, as the operators the trim lowers")
                : op;
    }

    public static boolean delayed(OperatorDecision op) {
        return op.recommendedParallelism() < op.currentParallelism() && !op.changes();
    }
}
