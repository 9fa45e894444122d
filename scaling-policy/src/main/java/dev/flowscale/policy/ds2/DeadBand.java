package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;

/** No rescale when every operator's change is within a relative tolerance of its parallelism. */
final class DeadBand {

    private DeadBand() {}

    static boolean within(OperatorDecision op, double tolerance) {
        int change = Math.abs(op.newParallelism() - op.currentParallelism());
        return change <= tolerance * op.currentParallelism();
    }

    static OperatorDecision hold(OperatorDecision op, double tolerance) {
        if (!op.changes()) {
            return op;
        }
        return op.withNewParallelism(
                op.currentParallelism(),
                String.format(
                        "change to %d within dead band ±%.0f %% of %d: kept",
                        op.newParallelism(), 100 * tolerance, op.currentParallelism()));
    }
}
