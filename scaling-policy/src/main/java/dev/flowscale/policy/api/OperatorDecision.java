package dev.flowscale.policy.api;

import java.util.List;

/**
 * The decision for one operator.
 *
 * @param currentParallelism parallelism when the decision was made
 * @param newParallelism parallelism to run at (equal to current when nothing changes)
 * @param recommendedParallelism what DS2 and the sizing guards (headroom, bounds, alignment)
 *     recommend before the scale-down delay and dead band apply
 * @param targetInputRate records per second the operator must process (sources: records they must
 *     read, including backlog catch-up)
 * @param capacityPerInstance assumed true processing rate per instance (records per second)
 * @param utilization target input rate / (new parallelism × capacity per instance)
 * @param catchUpShare for sources, the share of the target rate above the offered rate: backlog to
 *     drain and, in predictive mode, the forecast rise, so target × (1 − share) is the rate the
 *     source offered
 * @param reasons human-readable steps that led to {@code newParallelism}; kept as {@link Reasons},
 *     whose structured reasons are formatted when read
 */
public record OperatorDecision(
        String operatorId,
        int currentParallelism,
        int newParallelism,
        int recommendedParallelism,
        double targetInputRate,
        double capacityPerInstance,
        double utilization,
        double catchUpShare,
        List<String> reasons) {

    public OperatorDecision {
        Checks.notBlank(operatorId, "decision operator id");
        positive(currentParallelism, operatorId, "currentParallelism");
        positive(newParallelism, operatorId, "newParallelism");
        positive(recommendedParallelism, operatorId, "recommendedParallelism");
        if (reasons == null) {
            Checks.notNull(reasons, "decision of operator '" + operatorId + "' reasons");
        }
        reasons = Reasons.copyOf(reasons);
    }

    /** Builds the message only on failure: a decision creates several of these per operator. */
    private static void positive(int value, String operatorId, String field) {
        if (value < 1) {
            Checks.positive(value, "decision of operator '" + operatorId + "' " + field);
        }
    }

    public boolean changes() {
        return newParallelism != currentParallelism;
    }

    /** The same decision with one more reason. */
    public OperatorDecision withReason(String reason) {
        return new OperatorDecision(
                operatorId,
                currentParallelism,
                newParallelism,
                recommendedParallelism,
                targetInputRate,
                capacityPerInstance,
                utilization,
                catchUpShare,
                Reasons.copyOf(reasons).plus(reason));
    }

    public OperatorDecision withNewParallelism(int parallelism, String reason) {
        double util =
                capacityPerInstance > 0 ? targetInputRate / (parallelism * capacityPerInstance) : 0;
        return new OperatorDecision(
                operatorId,
                currentParallelism,
                parallelism,
                recommendedParallelism,
                targetInputRate,
                capacityPerInstance,
                util,
                catchUpShare,
                Reasons.copyOf(reasons).plus(reason));
    }
}
