package dev.flowscale.flink;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A policy whose decisions never ask a Flink job for more task slots than it may use ({@link
 * SlotCap}), and whose rescales say when the job's checkpoints make a rescale costly ({@link
 * FlinkRestMetricsSource#checkpointNote()}). Both come from what the metrics source saw with its
 * latest sample ({@link FlinkRestMetricsSource#slotLimit()}), so deciding reads nothing over the
 * network and the same inputs give the same decision.
 */
public final class SlotBoundPolicy implements ScalingPolicy {
    private final ScalingPolicy policy;
    private final Supplier<Optional<SlotLimit>> limit;
    private final Supplier<Optional<String>> checkpoints;

    public SlotBoundPolicy(ScalingPolicy policy, Supplier<Optional<SlotLimit>> limit) {
        this(policy, limit, Optional::empty);
    }

    /**
     * @param checkpoints why a rescale in place would be costly now, added to a rescale's reasons
     */
    public SlotBoundPolicy(
            ScalingPolicy policy,
            Supplier<Optional<SlotLimit>> limit,
            Supplier<Optional<String>> checkpoints) {
        this.policy = Objects.requireNonNull(policy, "bounded policy");
        this.limit = Objects.requireNonNull(limit, "slot limit");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoint note");
    }

    /** Wraps a policy, for assemblies that build the policy themselves. */
    public static UnaryOperator<ScalingPolicy> by(Supplier<Optional<SlotLimit>> limit) {
        return policy -> new SlotBoundPolicy(policy, limit);
    }

    /** Wraps a policy with what {@code source} saw at its latest sample: slots and checkpoints. */
    public static UnaryOperator<ScalingPolicy> by(
            Supplier<Optional<SlotLimit>> limit, Supplier<Optional<String>> checkpoints) {
        return policy -> new SlotBoundPolicy(policy, limit, checkpoints);
    }

    @Override
    public ScalingDecision decide(
            JobTopology topology, MetricsWindow window, ScalingHistory history) {
        ScalingDecision decision = policy.decide(topology, window, history);
        ScalingDecision capped = limit.get().map(l -> SlotCap.apply(decision, l)).orElse(decision);
        Optional<String> note = capped.isScale() ? checkpoints.get() : Optional.empty();
        return note.map(n -> withReason(capped, n)).orElse(capped);
    }

    private static ScalingDecision withReason(ScalingDecision d, String reason) {
        List<String> reasons = new ArrayList<>(d.reasons());
        reasons.add(reason);
        return new ScalingDecision(
                d.time(), d.jobName(), d.outcome(), d.blockReason(), reasons, d.operators());
    }
}
