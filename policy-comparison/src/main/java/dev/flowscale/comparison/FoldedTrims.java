package dev.flowscale.comparison;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A measured variant, not flowscale's policy: DS2 whose trims are folded into the next load change.
 * A trim the wrapped policy decides is held while the sources' rate is within {@code loadChange} of
 * the rate the last rescale (of any kind) was decided at, so the capacity a scale-up planned for
 * its catch-up, or the first scale-up's scalability prior, stays until the load moves: at most one
 * rescale per load change, paid for in over-provisioned instance-time. It answers "what would one
 * rescale per load change cost" in the side-by-side table ({@link ComparisonReport}).
 */
final class FoldedTrims implements ScalingPolicy {

    static final String FOLDED = "trim folded into the next load change: ";

    private final ScalingPolicy policy;
    private final double loadChange;

    /**
     * @param policy the policy whose trims are folded
     * @param loadChange relative change of the sources' rate that counts as a load change
     */
    FoldedTrims(ScalingPolicy policy, double loadChange) {
        this.policy = policy;
        this.loadChange = loadChange;
    }

    @Override
    public ScalingDecision decide(
            JobTopology topology, MetricsWindow window, ScalingHistory history) {
        ScalingDecision d = policy.decide(topology, window, history);
        if (!isTrim(d)) {
            return d;
        }
        Optional<ScalingDecision> last =
                history.decisions().stream().filter(ScalingDecision::isScale).reduce((a, b) -> b);
        double now = load(d, topology);
        double then = last.map(l -> load(l, topology)).orElse(Double.NaN);
        if (Double.isNaN(then) || Math.abs(now - then) > loadChange * Math.max(now, then)) {
            return d;
        }
        String why =
                String.format(
                        FOLDED
                                + "the sources' rate %.1f rec/s is within %.0f %% of %.1f rec/s at"
                                + " the last rescale (%s)",
                        now,
                        100 * loadChange,
                        then,
                        last.get().time());
        List<OperatorDecision> held = new ArrayList<>();
        d.operators()
                .values()
                .forEach(
                        op ->
                                held.add(
                                        op.changes()
                                                ? op.withNewParallelism(
                                                        op.currentParallelism(), why)
                                                : op));
        List<String> reasons = new ArrayList<>(d.reasons());
        reasons.add(why);
        return ScalingDecision.blocked(
                d.time(), d.jobName(), BlockReason.SCALE_DOWN_DELAYED, reasons, held);
    }

    private static boolean isTrim(ScalingDecision d) {
        return d.isScale()
                && d.operators().values().stream()
                        .allMatch(op -> op.newParallelism() <= op.currentParallelism());
    }

    /** The sources' offered rate a decision saw: its target without the catch-up share. */
    private static double load(ScalingDecision d, JobTopology topology) {
        double sum = 0;
        for (String id : topology.sources()) {
            OperatorDecision op = d.operators().get(id);
            if (op == null) {
                return Double.NaN;
            }
            sum += op.targetInputRate() * (1 - op.catchUpShare());
        }
        return sum;
    }
}
