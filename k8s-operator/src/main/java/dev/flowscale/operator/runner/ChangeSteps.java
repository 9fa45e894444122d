package dev.flowscale.operator.runner;

import java.time.Duration;
import java.util.Map;

/**
 * The steps of the change in {@code status.pending} that a path of its own (the in-place pod
 * resize, {@link PodResizeSteps}; the stop with a savepoint, {@link SavepointStop}) ends with, goes
 * on with or falls back to.
 */
interface ChangeSteps {
    /** Ends the change: records its outcome in status and reports it. */
    void finish(
            boolean succeeded, Map<String, Integer> parallelism, Duration downtime, String detail);

    /** The pod cannot be resized: the change goes on as a pod replacement, and says why. */
    Duration replaceInstead(String why);

    /** After an in-place request failed or went unanswered: what does the runner run now? */
    Duration carryOnInPlace(String why);

    /** Records the savepoint the change restores from, and says so in an Event. */
    void savepointTaken(String savepoint, String how);

    /** Carries on the change in status.pending from where it stands. */
    Duration carryOn();

    /** Time since the change started. */
    Duration elapsed();

    /** How long the change may take: spec.timeouts.rescale, or the operator's default. */
    Duration timeout();
}
