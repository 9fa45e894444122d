package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A trim that a scale-up followed at the same load has shown its configuration too tight: its
 * downtime's backlog drained later than the estimate said. A later trim at that load to the same
 * configuration, or to one no larger anywhere, would be followed by the same scale-up, a return to
 * a configuration already left without a load change; it is refused until the load changes.
 */
final class FailedTrim {

    private FailedTrim() {}

    static Optional<String> repeated(
            List<OperatorDecision> candidate,
            ScalingHistory history,
            double load,
            Set<String> sources,
            PolicyConfig config) {
        OptionalInt latest = history.index().latestScale();
        OptionalInt before = history.index().scaleBefore();
        if (latest.isEmpty() || before.isEmpty() || candidate.stream().noneMatch(Load::lowers)) {
            return Optional.empty();
        }
        ScalingDecision up = history.decisions().get(latest.getAsInt());
        ScalingDecision trim = history.decisions().get(before.getAsInt());
        boolean sameLoad =
                Load.same(Load.of(up, sources), load, config)
                        && Load.same(Load.of(trim, sources), load, config);
        if (!sameLoad || Load.isTrim(up) || !Load.isTrim(trim) || !noLarger(candidate, trim)) {
            return Optional.empty();
        }
        return Optional.of(
                Trim.TOO_TIGHT
                        + "the trim at "
                        + trim.time()
                        + " to this configuration or a larger one was followed by a scale-up at"
                        + " the same load");
    }

    private static boolean noLarger(List<OperatorDecision> candidate, ScalingDecision trim) {
        for (OperatorDecision op : candidate) {
            OperatorDecision then = trim.operators().get(op.operatorId());
            if (then == null || op.newParallelism() > then.newParallelism()) {
                return false;
            }
        }
        return true;
    }
}
