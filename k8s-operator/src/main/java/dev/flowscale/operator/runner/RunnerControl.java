package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.CheckpointFailures;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.runner.api.RescaleView;
import java.util.Map;
import java.util.Optional;

/**
 * The runner's control API as the reconciler uses it; {@link HttpRunnerControl} is the real one.
 * Every method throws {@link OperatorException} naming the runner and the cause when it cannot.
 */
public interface RunnerControl {

    /**
     * What the runner says it runs: the engine's status (RUNNING, STOPPED, ...), parallelism per
     * operator, its checkpoint failures, and the id of this run (new whenever the job starts).
     */
    record RunnerState(
            String status,
            Map<String, Integer> parallelism,
            CheckpointFailures checkpoints,
            String runId) {
        RunnerState(String status, Map<String, Integer> parallelism) {
            this(status, parallelism, null, null);
        }

        boolean runs(Map<String, Integer> expected) {
            return "RUNNING".equals(status)
                    && parallelism.entrySet().containsAll(expected.entrySet());
        }
    }

    /** Stops the job's runner with a savepoint and returns the savepoint's path. */
    String stopWithSavepoint(StreamJob job);

    /**
     * Rescales the job inside its running runner process (the pod stays); returns the runner's own
     * account (the runner contract's {@link RescaleView}: its savepoint, which is never null, and
     * its downtime).
     */
    RescaleView rescale(StreamJob job, Map<String, Integer> parallelism);

    /** The runner's job status and parallelism. */
    RunnerState state(StreamJob job);

    /**
     * The newest complete snapshot the runner knows (a stopped runner: its stop savepoint), if any.
     */
    Optional<String> latestSnapshot(StreamJob job);

    /**
     * {@link #state}, or empty when the runner cannot be reached (no pod, not started, stopped
     * pod).
     */
    default Optional<RunnerState> stateIfReachable(StreamJob job) {
        try {
            return Optional.of(state(job));
        } catch (OperatorException unreachable) {
            return Optional.empty();
        }
    }

    /** {@link #latestSnapshot}, or empty when the runner cannot be reached. */
    default Optional<String> latestSnapshotIfReachable(StreamJob job) {
        try {
            return latestSnapshot(job);
        } catch (OperatorException unreachable) {
            return Optional.empty();
        }
    }
}
