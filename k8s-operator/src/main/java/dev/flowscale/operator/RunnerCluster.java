package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** What the reconciler needs from the cluster; {@link Fabric8RunnerCluster} is the real one. */
public interface RunnerCluster {

    /**
     * Creates the resource, or replaces the existing one of the same name with it; a Secret is
     * only created when absent, never replaced (its content, a random token, must not change).
     */
    void apply(HasMetadata desired);

    /** Whether the cluster already holds {@code desired} as {@link #apply} would write it. */
    boolean upToDate(HasMetadata desired);

    /** Whether the PersistentVolumeClaim exists in the namespace. */
    boolean claimExists(String namespace, String claimName);

    /** Ready replicas of the Deployment; 0 when it does not exist. */
    int readyReplicas(String namespace, String deploymentName);
}
