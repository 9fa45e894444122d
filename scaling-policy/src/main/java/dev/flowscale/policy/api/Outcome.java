package dev.flowscale.policy.api;

/** What a {@link ScalingDecision} asks for. */
public enum Outcome {
    /** At least one operator's parallelism changes. */
    SCALE,
    /** The recommended parallelism equals the current one everywhere. */
    NO_CHANGE,
    /** Some operator would change, but every change is within the configured dead band. */
    NO_CHANGE_WITHIN_DEAD_BAND,
    /** No decision could or should be made now; see {@link BlockReason}. */
    BLOCKED
}
