package dev.flowscale.operator.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the reconciler needs from the cluster; {@link Fabric8RunnerCluster} is the real one. The
 * existing resources come from the reconciler's informer caches, so a pass reads nothing from the
 * API server.
 */
public interface RunnerCluster {

    /**
     * Creates {@code desired} (existing null), or replaces {@code existing} with it unless it is up
     * to date. A Secret is only created when absent and never replaced (its content, a random
     * token, must not change); Secrets are not cached, so {@code existing} is ignored for them.
     */
    void apply(HasMetadata desired, HasMetadata existing);

    /** Whether {@code existing} is {@code desired} as {@link #apply} would write it. */
    boolean upToDate(HasMetadata desired, HasMetadata existing);

    /**
     * The running (not terminating) pod with these labels in the namespace, read from the API
     * server.
     */
    Optional<Pod> pod(String namespace, Map<String, String> labels);

    /** Every pod with these labels in the namespace, terminating ones included. */
    List<Pod> pods(String namespace, Map<String, String> labels);

    /**
     * Deletes the pod with grace period 0: the API server removes it without waiting for its
     * kubelet to confirm ({@link StuckPods}).
     */
    void forceDelete(Pod pod);

    /**
     * Asks for the container's resources to become {@code resources} through the pod's {@code
     * resize} subresource (Kubernetes 1.33+); false when the API server answers 404 (no such
     * subresource, or the pod is gone): then the pod must be replaced instead.
     */
    boolean resize(Pod pod, String container, ResourceRequirements resources);

    /** Whether the PersistentVolumeClaim exists in the namespace. */
    boolean claimExists(String namespace, String claimName);
}
