package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * What the reconciler needs from the cluster; {@link Fabric8RunnerCluster} is the real one. The
 * existing resources come from the reconciler's informer caches, so a pass reads nothing from the
 * API server.
 */
public interface RunnerCluster {

    /**
     * Creates {@code desired} (existing null), or replaces {@code existing} with it unless it is up
     * to date. A Secret is only created when absent and never replaced (its content, a random token,
     * must not change); Secrets are not cached, so {@code existing} is ignored for them.
     */
    void apply(HasMetadata desired, HasMetadata existing);

    /** Whether {@code existing} is {@code desired} as {@link #apply} would write it. */
    boolean upToDate(HasMetadata desired, HasMetadata existing);

    /** Whether the PersistentVolumeClaim exists in the namespace. */
    boolean claimExists(String namespace, String claimName);
}
