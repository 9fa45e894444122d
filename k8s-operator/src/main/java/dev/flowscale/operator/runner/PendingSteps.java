package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import dev.flowscale.runner.api.RescaleView;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The steps of one change of the runner, recorded in {@code status.pending} before each is taken,
 * so that whichever pass (or operator) comes next carries it on from there: in place, or stop with
 * a savepoint ({@link SavepointStop}) → record it → apply → observe → roll back from the same
 * savepoint ({@link PodReplacementSteps}); the end is {@link ChangeEnd}'s.
 */
final class PendingSteps implements ChangeSteps {
    private final ReconcileStatus pass;
    private final Optional<Deployment> existing;
    private final ExecutorTools tools;

    PendingSteps(ReconcileStatus pass, Optional<Deployment> existing, ExecutorTools tools) {
        this.pass = pass;
        this.existing = existing;
        this.tools = tools;
    }

    Duration inPlace(String reason, Map<String, Integer> target) {
        record(reason, PendingChange.IN_PLACE, target);
        try {
            RescaleView done = tools.control().rescale(pass.job(), target);
            pass.write(st -> st.lastSavepoint = done.savepoint());
            finish(
                    true,
                    target,
                    done.downtime(),
                    "through savepoint " + done.savepoint() + "; the pod stays");
        } catch (OperatorException e) {
            return carryOnInPlace(e.getMessage());
        }
        return null;
    }

    Duration replacePod(String reason, Map<String, Integer> target) {
        record(reason, PendingChange.POD_REPLACEMENT, target);
        return stopThenCarryOn();
    }

    /** Resizes the running pod in place ({@link PodResizeSteps}), falling back to replacing it. */
    Duration resizePod(String reason, Map<String, Integer> target) {
        record(reason, PendingChange.IN_PLACE_RESIZE, target);
        return carryOn();
    }

    /** The pod could not be resized: the change goes on as a pod replacement, and says why. */
    @Override
    public Duration replaceInstead(String why) {
        pass.write(
                st -> {
                    st.pending.path = PendingChange.POD_REPLACEMENT;
                    st.pending.resizeRefused = why;
                });
        tools.events()
                .normal(
                        pass.job(),
                        JobEvents.POD_RESIZE_REFUSED,
                        "runner "
                                + RunnerResources.runnerName(pass.job())
                                + " cannot be resized in place ("
                                + why
                                + "): replacing its pod instead");
        return stopThenCarryOn();
    }

    private Duration stopThenCarryOn() {
        return new SavepointStop(pass, this, tools).stop();
    }

    private void record(String reason, String path, Map<String, Integer> target) {
        Long generation = pass.job().getMetadata().getGeneration();
        pass.write(
                st -> {
                    PendingChange change = new PendingChange();
                    change.reason = reason;
                    change.path = path;
                    change.from = new TreeMap<>(st.parallelism);
                    change.to = new TreeMap<>(target);
                    change.started = tools.clock().instant().toString();
                    change.generation = generation;
                    change.previousSpec = st.deployedSpec;
                    change.request = st.desiredRequest;
                    st.pending = change;
                });
    }

    @Override
    public void savepointTaken(String savepoint, String how) {
        pass.write(
                st -> {
                    st.pending.savepoint = savepoint;
                    st.lastSavepoint = savepoint;
                });
        PendingChange c = pass.status().pending;
        tools.events()
                .normal(
                        pass.job(),
                        JobEvents.SAVEPOINT_UPGRADE,
                        "runner "
                                + RunnerResources.runnerName(pass.job())
                                + " "
                                + how
                                + " "
                                + savepoint
                                + " ("
                                + c.reason
                                + ", generation "
                                + c.generation
                                + ")"
                                + (pass.job().getSpec().suspend
                                        ? "; suspended"
                                        : "; the new runner restores from it"));
    }

    /** Carries on the change in status.pending from where the last pass (or operator) left it. */
    @Override
    public Duration carryOn() {
        PendingChange c = pass.status().pending;
        if (PendingChange.IN_PLACE.equals(c.path)) {
            return carryOnInPlace("the operator restarted during the in-place rescale");
        }
        if (PendingChange.IN_PLACE_RESIZE.equals(c.path)) {
            return new PodResizeSteps(pass, this, tools).carryOn();
        }
        return new PodReplacementSteps(pass, existing, tools, this).carryOn();
    }

    /** After an in-place request failed or went unanswered: what does the runner run now? */
    @Override
    public Duration carryOnInPlace(String why) {
        PendingChange c = pass.status().pending;
        Optional<RunnerState> state = tools.control().stateIfReachable(pass.job());
        if (state.isPresent() && state.get().runs(c.to)) {
            finish(true, c.to, elapsed(), "confirmed by the runner after: " + why);
        } else if (state.isPresent() && state.get().status().equals("RUNNING")) {
            finish(
                    false,
                    c.from,
                    elapsed(),
                    why + "; the job runs on at " + state.get().parallelism());
        } else if (elapsed().compareTo(timeout()) > 0) {
            pass.write(
                    st -> {
                        st.pending.path = PendingChange.POD_REPLACEMENT;
                        st.pending.rollingBack = true;
                    });
            return carryOn(); // the runner is gone or stopped: restore the old parallelism in a new
            // pod
        } else {
            return Changes.PENDING_RECHECK;
        }
        return null;
    }

    @Override
    public Duration elapsed() {
        return Duration.between(
                Instant.parse(pass.status().pending.started), tools.clock().instant());
    }

    @Override
    public void finish(
            boolean succeeded, Map<String, Integer> parallelism, Duration downtime, String detail) {
        new ChangeEnd(pass, tools).finish(succeeded, parallelism, downtime, detail);
    }

    /** spec.timeouts.rescale, or the operator's default. */
    @Override
    public Duration timeout() {
        return tools.timeout().apply(pass.job());
    }
}
