package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.core.ReconcileStatus;
import dev.flowscale.runner.api.RescaleView;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.time.Duration;
import java.util.Optional;

/**
 * A rescale whose parallelism needs more than the runner pod has, made without a new pod where the
 * cluster can (Kubernetes 1.33+): the pod's resources are raised through its {@code resize}
 * subresource to what the new parallelism needs, the kubelet's answer is awaited ({@link
 * PodResize}), and the runner then rescales inside the pod. Each pass carries the change in {@code
 * status.pending} (path {@value PendingChange#IN_PLACE_RESIZE}) on from what the pod shows. A
 * server without the subresource (404), a resize the kubelet defers or finds infeasible, or one not
 * applied within the rescale timeout, replaces the pod instead.
 */
final class PodResizeSteps {
    private final ReconcileStatus pass;
    private final ChangeSteps steps;
    private final ExecutorTools tools;

    PodResizeSteps(ReconcileStatus pass, ChangeSteps steps, ExecutorTools tools) {
        this.pass = pass;
        this.steps = steps;
        this.tools = tools;
    }

    Duration carryOn() {
        StreamJob job = pass.job();
        PendingChange c = pass.status().pending;
        if (tools.control().stateIfReachable(job).map(s -> s.runs(c.to)).orElse(false)) {
            steps.finish(
                    true,
                    c.to,
                    steps.elapsed(),
                    "confirmed by the runner after the pod was resized in place");
            return null;
        }
        Optional<Pod> pod =
                tools.cluster()
                        .pod(job.getMetadata().getNamespace(), RunnerResources.selector(job));
        if (pod.isEmpty()) {
            return steps.replaceInstead("the runner pod is gone");
        }
        ResourceRequirements desired =
                PodResize.target(
                        pod.get(),
                        RunnerDeployment.CONTAINER,
                        RunnerDeployment.resources(job.getSpec().resources, slots(c)));
        if (!PodResize.asked(pod.get(), RunnerDeployment.CONTAINER, desired)) {
            if (!tools.cluster().resize(pod.get(), RunnerDeployment.CONTAINER, desired)) {
                return steps.replaceInstead(
                        "the API server has no resize subresource for pods (HTTP 404;"
                                + " Kubernetes 1.33 or later has it)");
            }
            return Changes.PENDING_RECHECK;
        }
        return observe(pod.get(), desired, c);
    }

    private Duration observe(Pod pod, ResourceRequirements desired, PendingChange c) {
        PodResize.Observed resize = PodResize.observe(pod, RunnerDeployment.CONTAINER, desired);
        if (resize.refused()) {
            return steps.replaceInstead(
                    "the kubelet answered the resize with "
                            + resize.state()
                            + ": "
                            + resize.message());
        }
        if (resize.state() != PodResize.State.DONE) {
            return steps.elapsed().compareTo(steps.timeout()) > 0
                    ? steps.replaceInstead("the resize was not applied within " + steps.timeout())
                    : Changes.PENDING_RECHECK;
        }
        int slots = slots(c);
        pass.write(
                st -> {
                    st.resizedPod = pod.getMetadata().getName();
                    st.resizedSlots = slots;
                });
        try {
            RescaleView done = tools.control().rescale(pass.job(), c.to);
            pass.write(st -> st.lastSavepoint = done.savepoint());
            steps.finish(
                    true,
                    c.to,
                    steps.elapsed(),
                    "pod "
                            + pod.getMetadata().getName()
                            + " resized in place to "
                            + desired.getRequests()
                            + ", then rescaled through savepoint "
                            + done.savepoint());
        } catch (OperatorException e) {
            return steps.carryOnInPlace(e.getMessage());
        }
        return null;
    }

    private int slots(PendingChange c) {
        return PodSizing.slots(pass.job().getSpec().resources, c.to);
    }
}
