package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;

/**
 * When a second trim may follow a trim at the same load: the first was sized on a guess that the
 * trim itself replaced with a measurement. Either it lowered some operator that had only ever run
 * at one parallelism, so its capacity below was assumed (linear, which errs on more instances), not
 * measured, and after it the operator has run at two and its fitted curve sizes the trim; or no
 * rescale had been measured yet, so it planned the configured downtime prior, and the rescale
 * downtime now measured differs from that prior by more than the load-change fraction (the spare
 * each operator keeps for its own rescale is sized on that downtime). One such correction per load:
 * a trim that followed a trim is never corrected again. The second trim still passes every other
 * test (spare for its downtime, savings over its cost).
 */
final class CorrectiveTrim {

    /** Past decisions read, as many as the capacity curves read. */
    private static final int DECISIONS = 200;

    private CorrectiveTrim() {}

    /**
     * Whether the history's latest rescale, a trim, may be corrected by another at the same load.
     */
    static boolean allowedAfter(
            ScalingHistory history,
            Collection<String> sources,
            PolicyConfig config,
            RescaleCost cost) {
        List<ScalingDecision> decisions = history.decisions();
        int index = history.index().latestScale().orElseThrow();
        if (followsATrim(history, index, sources, config)) {
            return false;
        }
        ScalingDecision trim = decisions.get(index);
        return downtimeNowMeasured(trim, config, cost)
                || config.learnScalability()
                        && trim.operators().values().stream()
                                .filter(Load::lowers)
                                .anyMatch(op -> onlyEverRanAt(decisions, index, op));
    }

    /**
     * Whether the trim planned the configured prior and the downtime measured since differs from it
     * by more than the load-change fraction.
     */
    private static boolean downtimeNowMeasured(
            ScalingDecision trim, PolicyConfig config, RescaleCost cost) {
        double prior = config.expectedRescaleDuration().toNanos() / 1e9;
        return RescaleCost.plannedOnPrior(trim)
                && !cost.prior()
                && Math.abs(cost.seconds() - prior)
                        > config.loadChange() * Math.max(prior, cost.seconds());
    }

    /** Whether the rescale before the trim at {@code index} was a trim at the same load. */
    private static boolean followsATrim(
            ScalingHistory history, int index, Collection<String> sources, PolicyConfig config) {
        List<ScalingDecision> decisions = history.decisions();
        OptionalInt before = history.index().scaleBefore();
        if (before.isEmpty()) {
            return false;
        }
        ScalingDecision d = decisions.get(before.getAsInt());
        return Load.isTrim(d)
                && Load.same(Load.of(d, sources), Load.of(decisions.get(index), sources), config);
    }

    private static boolean onlyEverRanAt(
            List<ScalingDecision> decisions, int index, OperatorDecision lowered) {
        for (int i = Math.max(0, index - DECISIONS); i < index; i++) {
            OperatorDecision past = decisions.get(i).operators().get(lowered.operatorId());
            if (past != null && past.currentParallelism() != lowered.currentParallelism()) {
                return false;
            }
        }
        return true;
    }
}
