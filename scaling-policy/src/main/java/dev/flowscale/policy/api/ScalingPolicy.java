package dev.flowscale.policy.api;

/**
 * Decides every operator's parallelism. Implementations are pure and deterministic: the same
 * topology, window, history and clock reading give the same decision.
 */
public interface ScalingPolicy {

    ScalingDecision decide(JobTopology topology, MetricsWindow window, ScalingHistory history);
}
