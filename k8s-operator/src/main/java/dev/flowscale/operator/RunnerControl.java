package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;

/** The runner's control API as the reconciler uses it; {@link HttpRunnerControl} is the real one. */
public interface RunnerControl {

    /**
     * Stops the job's runner with a savepoint and returns the savepoint's path; throws
     * {@link OperatorException} naming the runner and the cause when it cannot.
     */
    String stopWithSavepoint(StreamJob job);
}
