package dev.flowscale.policy.api;

/** Whether the autoscaler applies its decisions or only publishes them. */
public enum Mode {
    /** Publish decisions and hand SCALE decisions to the realizer. */
    AUTO,
    /** Publish decisions only. */
    RECOMMEND
}
