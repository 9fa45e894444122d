package dev.flowscale.flink;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A policy whose decisions never ask a Flink job for more task slots than it may use ({@link
 * SlotCap}). The limit comes from what the metrics source saw with its latest sample ({@link
 * FlinkRestMetricsSource#slotLimit()}), so deciding reads nothing over the network and the same
 * inputs give the same decision.
 */
public final class SlotBoundPolicy implements ScalingPolicy {
    private final ScalingPolicy policy;
    private final Supplier<Optional<SlotLimit>> limit;

    public SlotBoundPolicy(ScalingPolicy policy, Supplier<Optional<SlotLimit>> limit) {
        this.policy = Objects.requireNonNull(policy, "bounded policy");
        this.limit = Objects.requireNonNull(limit, "slot limit");
    }

    /** Wraps a policy, for assemblies that build the policy themselves. */
    public static UnaryOperator<ScalingPolicy> by(Supplier<Optional<SlotLimit>> limit) {
        return policy -> new SlotBoundPolicy(policy, limit);
    }

    @Override
    public ScalingDecision decide(
            JobTopology topology, MetricsWindow window, ScalingHistory history) {
        ScalingDecision decision = policy.decide(topology, window, history);
        return limit.get().map(l -> SlotCap.apply(decision, l)).orElse(decision);
    }
}
