package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The executor's passes when no runner runs the job as recorded: a runner that is missing, not
 * ready or stopped is deployed (again) or waited for, an ended run is recorded or run again, and a
 * runner an earlier release deployed is adopted. {@link RunnerExecutor} decides when; this applies
 * the runner's Deployment and records what it applied.
 */
final class RunnerDeploys {
    private final ExecutorTools tools;

    RunnerDeploys(ExecutorTools tools) {
        this.tools = tools;
    }

    /**
     * No runner runs the job: one that lingers STOPPED (its stop reply was lost, or it was stopped
     * by hand) is restarted from its own savepoint; one whose job ended by itself (FINISHED,
     * FAILED, CANCELLED) is left as it is ({@link JobEnd}); otherwise the desired runner is
     * applied, as there is no state to save first. A runner that runs or restarts by itself is not
     * ready yet: wait.
     */
    Duration notRunning(ReconcileStatus pass, Deployment existing, Map<String, Integer> target) {
        Optional<RunnerState> state = tools.control().stateIfReachable(pass.job());
        if (state.isPresent() && JobEnd.TRANSIENT.contains(state.get().status())) {
            JobEnd.runsAgain(pass, state);
            return Changes.PENDING_RECHECK;
        }
        boolean suspend = pass.job().getSpec().suspend;
        if (state.isPresent() && JobEnd.ENDED.contains(state.get().status()) && !suspend) {
            return ended(pass, state.get());
        }
        if (state.isPresent() && state.get().status().equals("STOPPED") && !suspend) {
            Optional<String> savepoint = tools.control().latestSnapshotIfReachable(pass.job());
            if (savepoint.isPresent() && !savepoint.get().equals(pass.status().deployedSavepoint)) {
                tools.events()
                        .normal(
                                pass.job(),
                                JobEvents.STRANDED_RUNNER,
                                "runner "
                                        + RunnerResources.runnerName(pass.job())
                                        + " is "
                                        + state.get().status()
                                        + ": restarting it from its savepoint "
                                        + savepoint.get());
                pass.write(st -> st.lastSavepoint = savepoint.get());
            }
        }
        if (state.isEmpty() && deployedAsIs(pass, existing)) {
            // Kubernetes brings the pod back by itself (the kubelet restarts its container, the
            // ReplicaSet replaces an evicted pod); its runner resumes from the newest snapshot in
            // its storage, and a pass rescales it in place once it runs. A new template here would
            // restart a runner that is only slow to answer, and its Recreate rollout would wait
            // for a pod on a lost node.
            return null;
        }
        if (state.isEmpty() && mayStillRun(pass, existing)) {
            // A spec change waits for a runner that may only be slow to answer, then stops it with
            // a savepoint: a new template now would replace it without one. A pod problem this
            // pass records lets the next one apply the change.
            return Changes.PENDING_RECHECK;
        }
        deploy(pass, target, pass.status().lastSavepoint, existing);
        return null;
    }

    /**
     * Whether an unreachable runner may still run the job's state: a pod of its Deployment runs
     * (phase Running, not being deleted), the Deployment holds the spec last deployed (whatever the
     * spec says now), and no pod problem was seen ({@link RunnerWatch#CONDITION}: a crash loop, a
     * refused or unschedulable pod, or no ready pod within spec.timeouts.deploy). Otherwise no
     * runner holds state to save, and the desired runner is applied at once.
     */
    boolean mayStillRun(ReconcileStatus pass, Deployment existing) {
        StreamJobStatus st = pass.status();
        boolean problem =
                Conditions.find(st, RunnerWatch.CONDITION)
                        .map(c -> "False".equals(c.getStatus()))
                        .orElse(false);
        StreamJob deployed =
                st.deployedSpec == null
                        ? DeployedSpec.runnerJob(pass)
                        : DeployedSpec.withSpec(pass.job(), st.deployedSpec);
        return !problem && podRuns(pass.job()) && deployed(pass, deployed, existing);
    }

    boolean podRuns(StreamJob job) {
        return tools
                .cluster()
                .pods(job.getMetadata().getNamespace(), RunnerResources.selector(job))
                .stream()
                .anyMatch(
                        p ->
                                p.getMetadata().getDeletionTimestamp() == null
                                        && p.getStatus() != null
                                        && "Running".equals(p.getStatus().getPhase()));
    }

    /** Whether the Deployment is still the one last deployed (only the parallelism may differ). */
    boolean deployedAsIs(ReconcileStatus pass, Deployment existing) {
        return deployed(pass, DeployedSpec.runnerJob(pass), existing);
    }

    /**
     * Whether the Deployment is {@code runner} as last deployed (only the parallelism may differ).
     */
    boolean deployed(ReconcileStatus pass, StreamJob runner, Deployment existing) {
        StreamJobStatus st = pass.status();
        return !st.deployedParallelism.isEmpty()
                && tools.cluster()
                        .upToDate(
                                RunnerDeployment.desired(
                                        runner,
                                        new TreeMap<>(st.deployedParallelism),
                                        st.deployedSavepoint),
                                existing);
    }

    /**
     * The runner's job ended by itself: recorded once; nothing is redeployed or requeued. While the
     * runner of a run that ended for an earlier spec still answers (it is being replaced), wait.
     */
    Duration ended(ReconcileStatus pass, RunnerState state) {
        if (pass.status().endedAs != null) {
            return Changes.PENDING_RECHECK;
        }
        JobEnd.record(pass, state.status(), tools.events());
        return null;
    }

    /**
     * The spec of a job whose run ended changed: the desired runner is applied without a savepoint
     * ({@link JobEnd}: the runner resumes from its storage's newest snapshot, none in a new
     * storage); the ended run stays recorded until its replacement answers. A change that leaves
     * the pod as it was leaves the ended runner: its end is recorded for the new spec.
     */
    Duration runAgain(
            ReconcileStatus pass, Map<String, Integer> target, Optional<Deployment> existing) {
        Deployment desired = RunnerDeployment.desired(pass.job(), new TreeMap<>(target), null);
        if (existing.isPresent() && tools.cluster().upToDate(desired, existing.get())) {
            pass.write(st -> st.endedGeneration = pass.job().getMetadata().getGeneration());
            return null;
        }
        pass.write(st -> st.lastSavepoint = null);
        deploy(pass, target, null, existing.orElse(null));
        return Changes.PENDING_RECHECK;
    }

    /** Takes over a runner whose status does not say how it was deployed: as it runs now. */
    static void adopt(ReconcileStatus pass, Map<String, Integer> target) {
        pass.write(
                st -> {
                    st.deployedParallelism =
                            new TreeMap<>(st.parallelism.isEmpty() ? target : st.parallelism);
                    st.deployedSavepoint = st.lastSavepoint;
                    if (st.parallelism.isEmpty()) {
                        st.parallelism = new TreeMap<>(target);
                    }
                });
    }

    void deploy(
            ReconcileStatus pass,
            Map<String, Integer> parallelism,
            String savepoint,
            Deployment existing) {
        StreamJob runner = DeployedSpec.runnerJob(pass);
        Instant applied =
                tools.applyRunner(
                        RunnerDeployment.desired(runner, parallelism, savepoint), existing);
        pass.write(
                st -> {
                    st.deployedAt = applied == null ? st.deployedAt : applied.toString();
                    st.deployedSpec = DeployedSpec.of(runner);
                    st.deployedParallelism = new TreeMap<>(parallelism);
                    st.deployedSavepoint = savepoint;
                    st.resizedPod = null;
                    st.resizedSlots = null;
                    st.parallelism = new TreeMap<>(parallelism);
                });
    }
}
