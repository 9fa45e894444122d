package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.operator.runner.RunnerControl.RunnerState;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one actor that changes a StreamJob's runner, level-triggered: each pass compares what should
 * run (spec, overlaid with the parallelism the autoscaler recorded in status) with what runs, and
 * takes one path for every change, whoever asked for it (a spec edit, an autoscaler decision,
 * suspend, an operator release whose pod template differs): record the change in status → stop with
 * a savepoint → record the savepoint → apply → observe readiness → on timeout roll back from the
 * same savepoint. A change of parallelism that the pod's resources cover is made inside the running
 * runner instead ({@link PendingChange#IN_PLACE}); anything else replaces the pod. A change in
 * status is carried on by the next pass, also after an operator restart.
 */
public final class RunnerExecutor {
    private final ExecutorTools tools;
    private final RunnerDeploys deploys;

    public RunnerExecutor(ExecutorTools tools) {
        this.tools = tools;
        this.deploys = new RunnerDeploys(tools);
    }

    /** One pass; returns how soon to look again (null: on the next event). */
    public Duration execute(ReconcileStatus pass, Optional<Deployment> existing) {
        // A rescale whose end was written but not reported (the write's reply was lost, or the
        // operator stopped in between) is reported before anything else changes.
        tools.reporting().reportPending(pass);
        if (existing.isPresent() && !Changes.ready(existing)) {
            StuckPods.remove(pass.job(), tools); // a pod on a lost node blocks its replacement
        }
        StreamJobStatus st = pass.status();
        if (st.pending != null) {
            return steps(pass, existing).carryOn();
        }
        Map<String, Integer> target = target(pass.job());
        if (JobEnd.ended(pass.job(), st)) {
            return null; // a job whose run ended stays so until its spec changes
        }
        if (st.endedAs != null
                && !Objects.equals(
                        st.observedGeneration, pass.job().getMetadata().getGeneration())) {
            return deploys.runAgain(pass, target, existing);
        }
        if (existing.isEmpty()) {
            deploys.deploy(pass, target, st.lastSavepoint, null);
            return null;
        }
        if (st.deployedParallelism.isEmpty()) {
            RunnerDeploys.adopt(pass, target); // a runner an earlier operator release deployed
        }
        if (st.deployedSpec == null && deploys.deployedAsIs(pass, existing.get())) {
            // A runner an earlier release deployed runs this spec: a rollback restores it.
            pass.write(s -> s.deployedSpec = DeployedSpec.of(pass.job()));
        }
        boolean ready = Changes.ready(existing);
        if (!ready || pass.job().getSpec().suspend && replicas(existing) == 0) {
            return deploys.notRunning(pass, existing.get(), target);
        }
        Optional<RunnerState> state = observeRunner(pass, target);
        if (state.isPresent() && JobEnd.ENDED.contains(state.get().status())) {
            return deploys.ended(
                    pass, state.get()); // still ready: its readiness probe has not failed yet
        }
        JobEnd.runsAgain(pass, state);
        Long generation = pass.job().getMetadata().getGeneration();
        if (ScaleUpBackoff.stale(st, target, generation)) {
            pass.write(s -> s.blockedScaleUp = null); // the load or the spec changed: start afresh
        }
        String reason = changeReason(pass, existing.get(), target);
        if (reason == null) {
            settleRequest(pass); // it runs already, or failed before for this generation
            return new PodDownsizeSteps(pass, tools)
                    .carryOn(
                            podSlots(pass),
                            runnerPod(pass.job()),
                            () ->
                                    steps(pass, existing)
                                            .replacePod(
                                                    PodDownsizeSteps.REASON,
                                                    new TreeMap<>(pass.status().parallelism)));
        }
        if (!Changes.parallelismOnly(reason) && StopAttempts.abandoned(st, generation)) {
            // No savepoint could be taken for this spec: StopAttempts.CONDITION says why.
            settleRequest(pass);
            return null;
        }
        Optional<Duration> backoff =
                ScaleUpBackoff.remaining(st, target, generation, tools.clock().instant());
        if (Changes.parallelismOnly(reason) && backoff.isPresent()) {
            // An unschedulable scale-up waits out its backoff; a pass then tries it again.
            settleRequest(pass);
            return backoff.get();
        }
        return change(pass, existing, reason, target);
    }

    /**
     * The autoscaler's latest request is declined or already runs: status says so, and the loop
     * ends its rescale from there ({@code StatusScalingRealizer.outcome}). A request the executor
     * carries out is settled when that change finishes.
     */
    private static void settleRequest(ReconcileStatus pass) {
        String request = pass.status().desiredRequest;
        if (request != null && !request.equals(pass.status().settledRequest)) {
            pass.write(st -> st.settledRequest = st.desiredRequest);
        }
    }

    /**
     * Takes the cheapest path that can make the change: in place when the pod's slots cover the
     * parallelism, in place after resizing the pod where the cluster may, else a new pod.
     */
    private Duration change(
            ReconcileStatus pass,
            Optional<Deployment> existing,
            String reason,
            Map<String, Integer> target) {
        boolean templateChanged = !Changes.parallelismOnly(reason);
        if (!templateChanged && PodSizing.covers(podSlots(pass), target)) {
            return steps(pass, existing).inPlace(reason, target);
        }
        if (!templateChanged
                && Boolean.TRUE.equals(pass.job().getSpec().rescaling.inPlacePodResize)
                && runnerPod(pass.job()).isPresent()) {
            return steps(pass, existing).resizePod(reason, target);
        }
        return steps(pass, existing).replacePod(reason, target);
    }

    /**
     * Why the running runner must change, or null: the pod template differs (the spec or the
     * operator changed it: "spec", "suspend", "upgrade"), or only the parallelism does.
     */
    private String changeReason(
            ReconcileStatus pass, Deployment existing, Map<String, Integer> target) {
        StreamJobStatus st = pass.status();
        StreamJob job = pass.job();
        // A generation rolled back is compared as the spec that runs, so it is not applied again.
        Deployment current =
                RunnerDeployment.desired(
                        DeployedSpec.runnerJob(pass),
                        new TreeMap<>(st.deployedParallelism),
                        st.deployedSavepoint);
        if (!tools.cluster().upToDate(current, existing)) {
            boolean newSpec =
                    !Objects.equals(st.observedGeneration, job.getMetadata().getGeneration());
            return job.getSpec().suspend ? "suspend" : newSpec ? "spec" : "upgrade";
        }
        boolean blocked =
                st.blockedScaleUp != null
                        && ScaleUpBackoff.matches(
                                st.blockedScaleUp, target, job.getMetadata().getGeneration());
        if (target.equals(st.parallelism) || failedBefore(pass, target) && !blocked) {
            return null;
        }
        return target.equals(job.getSpec().parallelism) || st.desiredParallelism.isEmpty()
                ? "spec-parallelism"
                : "autoscaler";
    }

    /**
     * Level-triggered on what the runner runs, not on what status last said: a runner restarted by
     * the kubelet (from its pod's arguments) after an in-place rescale runs at the pod's
     * parallelism again, and is rescaled again.
     */
    private Optional<RunnerState> observeRunner(ReconcileStatus pass, Map<String, Integer> target) {
        Optional<RunnerState> state = tools.control().stateIfReachable(pass.job());
        state.map(RunnerState::checkpoints)
                .ifPresent(
                        failures ->
                                pass.write(
                                        st ->
                                                Checkpointing.record(
                                                        st,
                                                        failures,
                                                        pass.job().getMetadata().getGeneration(),
                                                        tools.clock().instant())));
        if (state.isEmpty()
                || !state.get().status().equals("RUNNING")
                || state.get().runs(pass.status().parallelism)) {
            return state;
        }
        Map<String, Integer> runs = new TreeMap<>();
        state.get()
                .parallelism()
                .forEach(
                        (op, p) -> {
                            if (target.containsKey(op)
                                    || pass.status().parallelism.containsKey(op)) {
                                runs.put(op, p);
                            }
                        });
        pass.write(st -> st.parallelism = runs);
        return state;
    }

    /**
     * The slots of the running pod: its template's, or what it was resized to in place while it is
     * still the pod that was resized (a pod the Deployment recreated has its template's again).
     */
    private int podSlots(ReconcileStatus pass) {
        StreamJobStatus st = pass.status();
        int template = PodSizing.slots(pass.job().getSpec().resources, st.deployedParallelism);
        if (st.resizedSlots == null) {
            return template;
        }
        boolean same =
                runnerPod(pass.job())
                        .map(p -> p.getMetadata().getName().equals(st.resizedPod))
                        .orElse(false);
        if (!same) {
            pass.write(
                    s -> {
                        s.resizedPod = null;
                        s.resizedSlots = null;
                    });
            return template;
        }
        return st.resizedSlots; // resized up, or down after a scale-down
    }

    private Optional<Pod> runnerPod(StreamJob job) {
        return tools.cluster().pod(job.getMetadata().getNamespace(), RunnerResources.selector(job));
    }

    /**
     * A target that failed for this generation is not tried again until the spec or the target
     * changes; one the scheduler could not place is tried again after its backoff ({@link
     * ScaleUpBackoff}).
     */
    private static boolean failedBefore(ReconcileStatus pass, Map<String, Integer> target) {
        var last = pass.status().lastRescale;
        return last != null
                && !last.succeeded
                && target.equals(last.to)
                && Objects.equals(last.generation, pass.job().getMetadata().getGeneration());
    }

    /**
     * The parallelism the runner should run at: the spec's, overlaid with what the autoscaler
     * recorded (kept when the mode changes, so auto → recommend does not restart the job), except
     * for operators whose spec.parallelism the user changed since it was last applied.
     */
    static Map<String, Integer> target(StreamJob job) {
        StreamJobStatus st = ReconcileStatus.statusOf(job);
        Map<String, Integer> target = new TreeMap<>(job.getSpec().parallelism);
        st.desiredParallelism.forEach(
                (op, p) -> {
                    if (st.specParallelism.isEmpty()
                            || Objects.equals(
                                    st.specParallelism.get(op),
                                    job.getSpec().parallelism.get(op))) {
                        target.put(op, p);
                    }
                });
        return target;
    }

    private static int replicas(Optional<Deployment> deployment) {
        return deployment.map(d -> d.getSpec().getReplicas()).orElse(0);
    }

    private PendingSteps steps(ReconcileStatus pass, Optional<Deployment> existing) {
        return new PendingSteps(pass, existing, tools);
    }
}
