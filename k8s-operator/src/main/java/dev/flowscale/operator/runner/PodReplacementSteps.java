package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pod-replacement leg of the change in {@code status.pending}, after the stop: find the stop's
 * savepoint when its reply was lost, apply the runner from it, observe the new runner, and roll
 * back from the same savepoint when it does not run in time (or cannot be scheduled).
 */
final class PodReplacementSteps {
    private final ReconcileStatus pass;
    private final Optional<Deployment> existing;
    private final ExecutorTools tools;
    private final ChangeSteps steps;

    PodReplacementSteps(
            ReconcileStatus pass,
            Optional<Deployment> existing,
            ExecutorTools tools,
            ChangeSteps steps) {
        this.pass = pass;
        this.existing = existing;
        this.tools = tools;
        this.steps = steps;
    }

    Duration carryOn() {
        PendingChange c = pass.status().pending;
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
            steps.finish(
                    true,
                    parallelism,
                    steps.elapsed(),
                    "suspended with " + restoredFrom(pass.status().pending));
            return null;
        }
        if (runs(parallelism)) {
            PendingChange c = pass.status().pending;
            if (back && !Changes.parallelismOnly(c.reason)) {
                DeployedSpec.rolledBack(pass, tools, rolledBack(c));
            }
            steps.finish(
                    !back,
                    parallelism,
                    steps.elapsed(),
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
        if (unschedulable.isPresent() || !back && steps.elapsed().compareTo(steps.timeout()) > 0) {
            // A pod the scheduler cannot place goes back now, not at the timeout; it is retried
            // after a backoff.
            pass.write(
                    st -> {
                        st.pending.rollingBack = true;
                        st.pending.unschedulable = unschedulable.orElse(null);
                    });
            return steps.carryOn();
        }
        return Changes.PENDING_RECHECK;
    }

    /** Why the change was rolled back, for status, the Event and the log. */
    private String rolledBack(PendingChange c) {
        String why =
                c.unschedulable != null
                        ? "could not be scheduled (" + c.unschedulable + ")"
                        : "was not ready within " + steps.timeout();
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
     * The stop's reply was lost: a runner still RUNNING never stopped; a stopped one names its
     * savepoint. One that does neither (unreachable, or no snapshot readable) is asked again until
     * the rescale timeout, then replaced without a named savepoint ({@link
     * SavepointStop#notFound}).
     */
    private Duration findSavepoint() {
        Optional<RunnerState> state = tools.control().stateIfReachable(pass.job());
        if (state.isPresent() && state.get().status().equals("RUNNING")) {
            return new SavepointStop(pass, steps, tools).again(state.get()); // it never stopped
        }
        Optional<String> savepoint =
                state.isEmpty()
                        ? Optional.empty()
                        : tools.control().latestSnapshotIfReachable(pass.job());
        if (savepoint.isPresent()) {
            steps.savepointTaken(
                    savepoint.get(), "had stopped (its reply was lost) with savepoint");
            return steps.carryOn();
        }
        if (steps.elapsed().compareTo(steps.timeout()) <= 0) {
            return Changes.PENDING_RECHECK;
        }
        String seen =
                state.map(s -> "it answers " + s.status() + " but names no snapshot")
                        .orElse("it does not answer");
        return new SavepointStop(pass, steps, tools).notFound(seen);
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
}
