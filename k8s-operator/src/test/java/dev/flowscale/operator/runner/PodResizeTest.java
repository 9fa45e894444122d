package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * A pod's resize status in the shapes a Kubernetes 1.33+ API server returns (`kubectl get pod -o
 * json` after `kubectl patch --subresource resize`; kubernetes.io, "Resize CPU and Memory Resources
 * assigned to Containers": conditions PodResizePending with reason Deferred or Infeasible,
 * PodResizeInProgress, and the actual resources in status.containerStatuses[].resources).
 */
class PodResizeTest {
    static final ResourceRequirements DESIRED =
            new ResourceRequirementsBuilder()
                    .addToRequests("cpu", new Quantity("2000m"))
                    .addToRequests("memory", new Quantity("1024Mi"))
                    .addToLimits("memory", new Quantity("1024Mi"))
                    .build();

    /** The spec asks for 2 CPUs; the kubelet has not acted yet: the container still has 1. */
    static final String ASKED = pod("[]", "\"1\"");

    static final String IN_PROGRESS =
            pod(
                    """
            [{"type": "PodResizeInProgress", "status": "True", "lastTransitionTime": "2026-12-01T08:00:01Z"}]""",
                    "\"1\"");
    static final String DEFERRED =
            pod(
                    """
            [{"type": "PodResizePending", "status": "True", "reason": "Deferred",
              "message": "Node didn't have enough resource: cpu, requested: 2000, used: 3100, capacity: 4000",
              "lastTransitionTime": "2026-12-01T08:00:01Z"}]""",
                    "\"1\"");
    static final String INFEASIBLE =
            pod(
                    """
            [{"type": "PodResizePending", "status": "True", "reason": "Infeasible",
              "message": "Node didn't have enough capacity: cpu, requested: 2000, capacity: 1500",
              "lastTransitionTime": "2026-12-01T08:00:01Z"}]""",
                    "\"1\"");
    static final String FAILED =
            pod(
                    """
            [{"type": "PodResizeInProgress", "status": "True", "reason": "Error",
              "message": "failed to update container resources", "lastTransitionTime": "2026-12-01T08:00:01Z"}]""",
                    "\"1\"");

    /**
     * Applied: no resize condition, and the actual CPU is 2 (the API server writes "2", not
     * "2000m").
     */
    static final String APPLIED = pod("[]", "\"2\"");

    @Test
    void aResizeTheKubeletHasNotSeenYetIsAskedNotDone() {
        assertThat(observe(ASKED).state()).isEqualTo(PodResize.State.ASKED);
        assertThat(PodResize.asked(Serialization.unmarshal(ASKED, Pod.class), "runner", DESIRED))
                .isTrue();
    }

    @Test
    void aResizeBeingAppliedIsInProgress() {
        assertThat(observe(IN_PROGRESS).state()).isEqualTo(PodResize.State.IN_PROGRESS);
        assertThat(observe(IN_PROGRESS).refused()).isFalse();
    }

    @Test
    void aDeferredOrInfeasibleResizeIsRefusedWithTheKubeletsMessage() {
        assertThat(observe(DEFERRED))
                .isEqualTo(
                        new PodResize.Observed(
                                PodResize.State.DEFERRED,
                                "Node didn't have enough resource: cpu, requested: 2000, used: 3100, capacity: 4000"));
        assertThat(observe(INFEASIBLE).state()).isEqualTo(PodResize.State.INFEASIBLE);
        assertThat(observe(INFEASIBLE).refused()).isTrue();
        assertThat(observe(FAILED).state()).isEqualTo(PodResize.State.ERROR);
    }

    @Test
    void aResizeIsDoneWhenTheContainersActualResourcesAreTheOnesAskedFor() {
        assertThat(observe(APPLIED).state()).isEqualTo(PodResize.State.DONE);
    }

    private static PodResize.Observed observe(String json) {
        return PodResize.observe(Serialization.unmarshal(json, Pod.class), "runner", DESIRED);
    }

    private static String pod(String conditions, String actualCpu) {
        return """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-7d9f8b6c5-x2x4q", "namespace": "jobs",
                  "generation": 2},
                 "spec": {"containers": [{"name": "runner", "image": "registry.example/flowscale-runner:0.1.0",
                   "resources": {"requests": {"cpu": "2", "memory": "1Gi"}, "limits": {"memory": "1Gi"}}}]},
                 "status": {"phase": "Running", "qosClass": "Burstable", "observedGeneration": 2,
                   "conditions": %s,
                   "containerStatuses": [{"name": "runner", "ready": true, "restartCount": 0,
                     "image": "registry.example/flowscale-runner:0.1.0",
                     "allocatedResources": {"cpu": "1", "memory": "512Mi"},
                     "resources": {"requests": {"cpu": %s, "memory": "1Gi"}, "limits": {"memory": "1Gi"}}}]}}
                """
                .formatted(conditions, actualCpu);
    }
}
