package dev.flowscale.policy.api;

/** Receives every decision the autoscaler makes, in both modes (status, events, metrics). */
public interface DecisionListener {

    void onDecision(ScalingDecision decision);
}
