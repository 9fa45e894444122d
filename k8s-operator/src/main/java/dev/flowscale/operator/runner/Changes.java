package dev.flowscale.operator.runner;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.Optional;

/** What the executor and the steps of a change share: plain facts about a runner and a change. */
public final class Changes {
    /** How soon a pass looks again while a change is under way. */
    public static final Duration PENDING_RECHECK = Duration.ofSeconds(1);

    private Changes() {}

    /** Whether the runner's Deployment has a ready pod. */
    public static boolean ready(Optional<Deployment> deployment) {
        return deployment.map(Deployment::getStatus).map(s -> s.getReadyReplicas()).orElse(0) > 0;
    }

    /** Whether a change of this reason changes only the parallelism (the pod template stays). */
    static boolean parallelismOnly(String reason) {
        return reason.equals("autoscaler") || reason.equals("spec-parallelism");
    }
}
