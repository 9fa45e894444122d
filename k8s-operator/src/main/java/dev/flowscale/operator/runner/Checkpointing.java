package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.CheckpointFailures;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import java.time.Instant;

/**
 * The runner's checkpoint failures in the StreamJob's status: {@code status.checkpoints} and the
 * condition {@value #CONDITION}, False (reason CheckpointFailing, with the runner's message) while
 * the latest checkpoints failed, True once one completes again. Written only when they change.
 */
final class Checkpointing {
    static final String CONDITION = "Checkpointing";

    private Checkpointing() {}

    static void record(
            StreamJobStatus status, CheckpointFailures failures, Long generation, Instant now) {
        if (failures.equals(status.checkpoints)) {
            return;
        }
        status.checkpoints = failures;
        boolean failing = failures.consecutive != null && failures.consecutive > 0;
        String message =
                failing
                        ? failures.consecutive
                                + " checkpoint(s) in a row failed, the latest at "
                                + failures.lastFailureAt
                                + ": "
                                + failures.lastFailure
                                + "; the runner keeps trying on schedule and fails over after its limit (docs/durability.md)"
                        : failures.failed
                                + " checkpoint(s) failed since the runner started; the latest completed";
        Conditions.set(
                status,
                CONDITION,
                !failing,
                failing ? "CheckpointFailing" : "CheckpointsCompleting",
                message,
                generation,
                now);
    }
}
