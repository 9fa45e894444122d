package dev.flowscale.operator.runner;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How an in-place resize of a pod is going, read as the kubelet reports it since Kubernetes 1.33
 * (kubernetes.io, "Resize CPU and Memory Resources assigned to Containers"): condition {@value
 * #PENDING} with reason Deferred (may fit later) or Infeasible (never fits this node); condition
 * {@value #IN_PROGRESS} while it is applied (reason Error when applying failed); done when neither
 * condition is set and the container's actual resources in {@code
 * status.containerStatuses[].resources} are the ones asked for. Pure.
 */
public final class PodResize {
    public static final String PENDING = "PodResizePending";
    public static final String IN_PROGRESS = "PodResizeInProgress";

    enum State {
        ASKED,
        IN_PROGRESS,
        DONE,
        DEFERRED,
        INFEASIBLE,
        ERROR
    }

    /** The state and the kubelet's message (null when it gave none). */
    record Observed(State state, String message) {
        boolean refused() {
            return state == State.DEFERRED || state == State.INFEASIBLE || state == State.ERROR;
        }
    }

    private PodResize() {}

    /** Whether the pod's spec already asks for {@code desired} (a resize was sent). */
    static boolean asked(Pod pod, String container, ResourceRequirements desired) {
        return pod.getSpec().getContainers().stream()
                .filter(c -> container.equals(c.getName()))
                .findFirst()
                .map(c -> same(c.getResources(), desired))
                .orElse(false);
    }

    static Observed observe(Pod pod, String container, ResourceRequirements desired) {
        Optional<PodCondition> pending = condition(pod, PENDING);
        if (pending.isPresent()) {
            State state =
                    "Infeasible".equals(pending.get().getReason())
                            ? State.INFEASIBLE
                            : State.DEFERRED;
            return new Observed(state, pending.get().getMessage());
        }
        Optional<PodCondition> progress = condition(pod, IN_PROGRESS);
        if (progress.isPresent()) {
            return new Observed(
                    "Error".equals(progress.get().getReason()) ? State.ERROR : State.IN_PROGRESS,
                    progress.get().getMessage());
        }
        boolean applied =
                statuses(pod).stream()
                        .filter(c -> container.equals(c.getName()))
                        .findFirst()
                        .map(c -> same(c.getResources(), desired))
                        .orElse(false);
        return new Observed(applied ? State.DONE : State.ASKED, null);
    }

    /**
     * What a resize of the pod's container to {@code sized} (a pod template's resources) asks for:
     * its requests, with the memory limit never lowered. Kubernetes 1.33 refuses to lower a memory
     * limit in place unless the container's resizePolicy for memory is RestartContainer (which
     * would restart the runner and lose its running state), and a runner's JVM sized its heap at
     * start and does not give that memory back; lowering the requests is what frees the node's
     * capacity for the scheduler and the cluster autoscaler.
     */
    static ResourceRequirements target(Pod pod, String container, ResourceRequirements sized) {
        Quantity limit =
                pod.getSpec().getContainers().stream()
                        .filter(c -> container.equals(c.getName()))
                        .findFirst()
                        .map(c -> c.getResources())
                        .map(r -> r.getLimits() == null ? null : r.getLimits().get("memory"))
                        .orElse(null);
        Quantity wanted = sized.getLimits() == null ? null : sized.getLimits().get("memory");
        ResourceRequirements target = new ResourceRequirementsBuilder(sized).build();
        if (limit != null
                && wanted != null
                && Quantity.getAmountInBytes(limit).compareTo(Quantity.getAmountInBytes(wanted))
                        > 0) {
            target.getLimits().put("memory", limit);
        }
        return target;
    }

    /** Requests and limits equal as quantities (250m and 0.25 are the same CPU). */
    public static boolean same(ResourceRequirements a, ResourceRequirements b) {
        return a != null
                && b != null
                && same(a.getRequests(), b.getRequests())
                && same(a.getLimits(), b.getLimits());
    }

    private static boolean same(Map<String, Quantity> a, Map<String, Quantity> b) {
        Map<String, Quantity> x = a == null ? Map.of() : a;
        Map<String, Quantity> y = b == null ? Map.of() : b;
        return x.keySet().equals(y.keySet())
                && x.keySet().stream()
                        .allMatch(
                                k ->
                                        Objects.equals(
                                                Quantity.getAmountInBytes(x.get(k))
                                                        .stripTrailingZeros(),
                                                Quantity.getAmountInBytes(y.get(k))
                                                        .stripTrailingZeros()));
    }

    private static Optional<PodCondition> condition(Pod pod, String type) {
        List<PodCondition> conditions =
                pod.getStatus() == null || pod.getStatus().getConditions() == null
                        ? List.of()
                        : pod.getStatus().getConditions();
        return conditions.stream()
                .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
                .findFirst();
    }

    private static List<ContainerStatus> statuses(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                ? List.of()
                : pod.getStatus().getContainerStatuses();
    }
}
