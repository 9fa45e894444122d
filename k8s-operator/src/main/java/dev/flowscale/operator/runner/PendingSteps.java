package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import dev.flowscale.runner.api.RescaleView;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The steps of one change of the runner, recorded in {@code status.pending} before each is taken,
 * so that whichever pass (or operator) comes next carries it on from there: in place, or stop with
 * a savepoint → record it → apply → observe → roll back from the same savepoint.
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
        if (c.savepoint == null && c.savepointNotFound == null) {
            return findSavepoint();
        }
        boolean back = Boolean.TRUE.equals(c.rollingBack);
        Map<String, Integer> parallelism =
                new TreeMap<>(back ? c.from : c.to); // sorted, as every pod template
        if (!pass.job().getSpec().suspend && runs(parallelism)) {
            // The new runner runs: finish before applying anything newer (a spec edit since then
            // gets a savepoint of its own). Until it runs, a newer spec joins this restore.
            return observe(parallelism, back);
        }
        // A rollback restores the whole template the runner ran before (args, image, resources),
        // not the new spec at the old parallelism.
        StreamJob runner =
                back && c.previousSpec != null
                        ? DeployedSpec.withSpec(pass.job(), c.previousSpec)
                        : DeployedSpec.runnerJob(pass);
        Deployment desired = RunnerDeployment.desired(runner, parallelism, c.savepoint);
        Instant applied = tools.applyRunner(desired, existing.orElse(null));
        pass.write(
                st -> {
                    st.deployedAt = applied == null ? st.deployedAt : applied.toString();
                    st.deployedSpec = DeployedSpec.of(runner);
                    st.deployedParallelism = new TreeMap<>(parallelism);
                    st.deployedSavepoint = c.savepoint;
                    st.resizedPod = null; // a new pod, sized by its template
                    st.resizedSlots = null;
                });
        return observe(parallelism, back);
    }

    private Duration observe(Map<String, Integer> parallelism, boolean back) {
        if (pass.job().getSpec().suspend) {
            finish(
                    true,
                    parallelism,
                    elapsed(),
                    "suspended with " + restoredFrom(pass.status().pending));
            return null;
        }
        if (runs(parallelism)) {
            PendingChange c = pass.status().pending;
            if (back && !Changes.parallelismOnly(c.reason)) {
                DeployedSpec.rolledBack(pass, tools, rolledBack(c));
            }
            finish(
                    !back,
                    parallelism,
                    elapsed(),
                    back
                            ? rolledBack(c)
                            : "restored from "
                                    + restoredFrom(c)
                                    + " in a new pod"
                                    + (c.resizeRefused == null
                                            ? ""
                                            : " (no in-place resize: " + c.resizeRefused + ")"));
            return null;
        }
        Optional<String> unschedulable =
                back || !Changes.parallelismOnly(pass.status().pending.reason)
                        ? Optional.empty()
                        : ScaleUpBackoff.unschedulable(pass.status());
        if (unschedulable.isPresent() || !back && elapsed().compareTo(timeout()) > 0) {
            // A pod the scheduler cannot place goes back now, not at the timeout; it is retried
            // after a backoff.
            pass.write(
                    st -> {
                        st.pending.rollingBack = true;
                        st.pending.unschedulable = unschedulable.orElse(null);
                    });
            return carryOn();
        }
        return Changes.PENDING_RECHECK;
    }

    /** Why the change was rolled back, for status, the Event and the log. */
    private String rolledBack(PendingChange c) {
        String why =
                c.unschedulable != null
                        ? "could not be scheduled (" + c.unschedulable + ")"
                        : "was not ready within " + timeout();
        String retry =
                c.unschedulable == null
                        ? ""
                        : "; tried again after "
                                + ScaleUpBackoff.wait(
                                                pass.job().getSpec().rescaling, attemptsAfter(c))
                                        .toSeconds()
                                + " s (spec.rescaling.retryBackoff, doubled per failed attempt)";
        return "the runner at "
                + c.to
                + " "
                + why
                + "; rolled back to "
                + c.from
                + " from the same "
                + restoredFrom(c)
                + retry;
    }

    /** What the new runner restores: the stop's savepoint, or its storage's newest snapshot. */
    private static String restoredFrom(PendingChange c) {
        return c.savepoint != null
                ? "savepoint " + c.savepoint
                : "newest snapshot in its storage (the stop's savepoint was not found)";
    }

    private int attemptsAfter(PendingChange c) {
        var b = pass.status().blockedScaleUp;
        return b != null && ScaleUpBackoff.matches(b, c.to, c.generation) ? b.attempts + 1 : 1;
    }

    /**
     * The stop's reply did not arrive: ask the runner whether it stopped, and with which savepoint.
     */
    /**
     * The stop's reply was lost: a runner still RUNNING never stopped; a stopped one names its
     * savepoint. One that does neither (unreachable, or no snapshot readable) is asked again until
     * the rescale timeout, then replaced without a named savepoint ({@link
     * SavepointStop#notFound}).
     */
    private Duration findSavepoint() {
        Optional<RunnerState> state = tools.control().stateIfReachable(pass.job());
        if (state.isPresent() && state.get().status().equals("RUNNING")) {
            return new SavepointStop(pass, this, tools).again(state.get()); // it never stopped
        }
        Optional<String> savepoint =
                state.isEmpty()
                        ? Optional.empty()
                        : tools.control().latestSnapshotIfReachable(pass.job());
        if (savepoint.isPresent()) {
            savepointTaken(savepoint.get(), "had stopped (its reply was lost) with savepoint");
            return carryOn();
        }
        if (elapsed().compareTo(timeout()) <= 0) {
            return Changes.PENDING_RECHECK;
        }
        String seen =
                state.map(s -> "it answers " + s.status() + " but names no snapshot")
                        .orElse("it does not answer");
        return new SavepointStop(pass, this, tools).notFound(seen);
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

    /** Whether the Deployment is ready and its runner answers RUNNING at {@code parallelism}. */
    private boolean runs(Map<String, Integer> parallelism) {
        String replaced = pass.status().pending == null ? null : pass.status().pending.replacedRun;
        return Changes.ready(existing)
                && tools.control()
                        .stateIfReachable(pass.job())
                        .map(s -> s.runs(parallelism) && !Objects.equals(s.runId(), replaced))
                        .orElse(false);
    }

    @Override
    public Duration elapsed() {
        return Duration.between(
                Instant.parse(pass.status().pending.started), tools.clock().instant());
    }

    @Override
    public void finish(
            boolean succeeded, Map<String, Integer> parallelism, Duration downtime, String detail) {
        PendingChange c = pass.status().pending;
        var outcome = new RescaleOutcome();
        outcome.time = tools.clock().instant().toString();
        outcome.path = c.path;
        outcome.downtimeSeconds = downtime.toNanos() / 1e9;
        outcome.succeeded = succeeded;
        outcome.from = c.from;
        outcome.to = c.to;
        outcome.generation = c.generation;
        outcome.message = RescaleReporting.message(outcome, detail);
        outcome.reportPending = c.from.equals(c.to) ? null : true;
        pass.write(
                st -> {
                    st.parallelism = new TreeMap<>(parallelism);
                    st.lastRescale = c.from.equals(c.to) ? st.lastRescale : outcome;
                    st.pending = null;
                    if (c.request != null) {
                        st.settledRequest = c.request;
                    }
                    if (c.unschedulable != null) {
                        ScaleUpBackoff.block(
                                st, c, pass.job().getSpec().rescaling, tools.clock().instant());
                    } else if (!succeeded && "autoscaler".equals(c.reason)) {
                        st.desiredParallelism.putAll(
                                parallelism); // the autoscaler decides again from what runs
                    } else if (succeeded) {
                        st.blockedScaleUp = null;
                    }
                    if (succeeded
                            && st.savepointFailure != null
                            && !Objects.equals(
                                    st.savepointFailure.fallbackCheckpoint, c.savepoint)) {
                        st.savepointFailure = null; // a later change took its savepoint
                    }
                });
        if (c.unschedulable != null) {
            tools.events()
                    .warning(
                            pass.job(),
                            JobEvents.SCALING_BLOCKED,
                            ScaleUpBackoff.message(pass.status().blockedScaleUp));
        }
        tools.reporting().reportPending(pass);
    }

    /** spec.timeouts.rescale, or the operator's default. */
    @Override
    public Duration timeout() {
        return tools.timeout().apply(pass.job());
    }
}
