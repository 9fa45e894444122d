package dev.flowscale.policy.api;

/** Why a decision was {@link Outcome#BLOCKED}. */
public enum BlockReason {
    /** No window, an operator of the topology has no metrics, or a source has no lag signal. */
    METRICS_MISSING,
    /** The window ended too long ago. */
    METRICS_STALE,
    /** A value is NaN, infinite, negative or inconsistent with the others or the topology. */
    METRICS_INVALID,
    /** The window starts within the warm-up period after the last rescale. */
    WARMING_UP,
    /** A rescale has started and not finished. */
    RESCALE_IN_PROGRESS,
    /** The only changes are scale-downs that have not been recommended long enough. */
    SCALE_DOWN_DELAYED,
    /**
     * The running configuration fell short in this window, which may straddle a load change; the
     * rescale waits for the next window to confirm it and to size it on rates measured at the new
     * load.
     */
    NEED_UNCONFIRMED,
    /** The job has used its rescale budget (maximum rescales per hour). */
    RESCALE_BUDGET_EXHAUSTED
}
