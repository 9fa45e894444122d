package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stop-with-savepoint that begins a change replacing the runner, with the bounded retries of
 * {@link StopAttempts}: each failure is recorded in {@code status.pending}, reported (Warning Event
 * {@value JobEvents#SAVEPOINT_FAILED}, a log line) and tried again after its backoff; after the
 * last one the change restores the latest checkpoint (upgradeMode last-state) or is abandoned.
 */
final class SavepointStop {
    private static final Logger LOG = LoggerFactory.getLogger(SavepointStop.class);
    private final ReconcileStatus pass;
    private final ChangeSteps steps;
    private final ExecutorTools tools;

    SavepointStop(ReconcileStatus pass, ChangeSteps steps, ExecutorTools tools) {
        this.pass = pass;
        this.steps = steps;
        this.tools = tools;
    }

    /** Stops the runner with a savepoint and carries the change on from it. */
    Duration stop() {
        String savepoint;
        try {
            savepoint = tools.control().stopWithSavepoint(pass.job());
        } catch (OperatorException e) {
            return failed(e.getMessage());
        }
        stoppedNow();
        steps.savepointTaken(savepoint, "stopped with savepoint");
        return steps.carryOn();
    }

    /** The runner runs on after a stop: stop it again once the backoff is over, or give up. */
    Duration again(RunnerState state) {
        PendingChange c = pass.status().pending;
        if (StopAttempts.exhausted(c)) {
            return giveUp(state);
        }
        Duration wait = StopAttempts.untilNext(c, tools.clock().instant());
        return wait.isZero() ? stop() : wait;
    }

    /**
     * The runner neither runs nor names the savepoint of its stop, and the rescale timeout passed:
     * waiting longer would leave the job down for good. The change goes on without a named
     * savepoint: the new runner restores the newest complete snapshot in its storage (the stop's
     * savepoint if the stop completed, else the latest checkpoint). Condition {@value
     * StopAttempts#CONDITION} and a Warning Event say so.
     */
    Duration notFound(String seen) {
        String message =
                "runner "
                        + RunnerResources.runnerName(pass.job())
                        + " did not name the savepoint of its stop within "
                        + steps.timeout().toSeconds()
                        + " s ("
                        + seen
                        + "): replacing it from the newest complete snapshot in its storage (the"
                        + " savepoint if the stop completed, else the latest checkpoint)";
        pass.write(
                st -> {
                    st.pending.stopError = null;
                    st.pending.savepointNotFound = message;
                    // The new runner's deadline counts from its deploy, not from the lost stop.
                    st.pending.started = tools.clock().instant().toString();
                });
        LOG.warn("StreamJob {}: {}", name(), message);
        tools.events().warning(pass.job(), JobEvents.SAVEPOINT_NOT_FOUND, message);
        return steps.carryOn();
    }

    /**
     * Records the failed attempt and says so; the runner may have stopped and the reply been lost,
     * so the next pass asks it first.
     */
    private Duration failed(String error) {
        Instant now = tools.clock().instant();
        pass.write(st -> StopAttempts.failed(st, error, now));
        String message = StopAttempts.attemptMessage(pass.job(), pass.status().pending);
        LOG.warn("StreamJob {}: {}", name(), message);
        tools.events().warning(pass.job(), JobEvents.SAVEPOINT_FAILED, message);
        return Changes.PENDING_RECHECK;
    }

    /**
     * No attempt is left: replace the runner from its latest checkpoint where the spec allows it,
     * else abandon the change (the job runs on as it is).
     */
    private Duration giveUp(RunnerState state) {
        PendingChange c = pass.status().pending;
        Optional<String> checkpoint =
                StopAttempts.fallsBack(pass.job())
                        ? tools.control().latestSnapshotIfReachable(pass.job())
                        : Optional.empty();
        String message = StopAttempts.gaveUpMessage(pass.job(), c, checkpoint.orElse(null));
        Instant now = tools.clock().instant();
        pass.write(
                st -> {
                    StopAttempts.gaveUp(st, checkpoint.orElse(null), now);
                    st.pending.stopError = null;
                    checkpoint.ifPresent(
                            cp -> {
                                st.pending.savepoint = cp;
                                st.pending.replacedRun = state.runId();
                                st.lastSavepoint = cp;
                            });
                });
        LOG.warn("StreamJob {}: {}", name(), message);
        tools.events()
                .warning(
                        pass.job(),
                        JobEvents.SAVEPOINT_FAILED,
                        "runner " + RunnerResources.runnerName(pass.job()) + ": " + message);
        if (checkpoint.isPresent()) {
            stoppedNow();
            return steps.carryOn();
        }
        steps.finish(false, c.from, steps.elapsed(), message);
        return null;
    }

    /**
     * The job goes down now: after failed attempts (it ran on meanwhile) its downtime and the
     * deadline for the new runner count from here, not from the first attempt.
     */
    private void stoppedNow() {
        if (pass.status().pending.stopAttempts != null) {
            String now = tools.clock().instant().toString();
            pass.write(st -> st.pending.started = now);
        }
    }

    private String name() {
        return pass.job().getMetadata().getNamespace() + "/" + pass.job().getMetadata().getName();
    }
}
