package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runner pods stuck Terminating, and their removal. A pod's {@code metadata.deletionTimestamp} is
 * the deadline by which its kubelet must have stopped its containers and confirmed the deletion; a
 * kubelet that reaches the API server does so within the grace period. A pod still present {@link
 * #AFTER} past that deadline has a kubelet that cannot: its node is lost (the node lifecycle
 * controller evicted it, or the Deployment controller deleted it for a rollout). Such a pod stays
 * until someone deletes it with grace period 0, and while it exists the Recreate strategy starts no
 * pod for a new template (the Deployment controller's {@code oldPodsRunning} counts every old pod
 * that is not Succeeded or Failed). Deleting it with grace period 0 is safe for the job's state: a
 * runner that still runs on the lost node cannot commit a snapshot once the new runner owns the
 * storage folder (the folder's epoch, docs/durability.md), and a ReadWriteOnce claim is attached to
 * the new node only after the old attachment is released.
 */
final class StuckPods {
    private static final Logger LOG = LoggerFactory.getLogger(StuckPods.class);

    /** How long past its deletion deadline a pod may stay before it is deleted with grace 0. */
    static final Duration AFTER = Duration.ofMinutes(1);

    private StuckPods() {}

    /** The pods among {@code pods} whose deletion deadline passed more than {@link #AFTER} ago. */
    static List<Pod> stuck(List<Pod> pods, Instant now) {
        return pods.stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() != null)
                .filter(
                        p ->
                                Instant.parse(p.getMetadata().getDeletionTimestamp())
                                        .plus(AFTER)
                                        .isBefore(now))
                .toList();
    }

    /** Deletes the job's stuck runner pods with grace period 0; says so in an Event and the log. */
    static void remove(StreamJob job, ExecutorTools tools) {
        String namespace = job.getMetadata().getNamespace();
        List<Pod> pods = tools.cluster().pods(namespace, RunnerResources.selector(job));
        for (Pod pod : stuck(pods, tools.clock().instant())) {
            tools.cluster().forceDelete(pod);
            String message = message(job, pod);
            LOG.warn(message);
            tools.events().warning(job, JobEvents.STUCK_POD_DELETED, message);
        }
    }

    private static String message(StreamJob job, Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return "runner pod "
                + namespace(pod)
                + "/"
                + pod.getMetadata().getName()
                + (node == null ? "" : " on node " + node)
                + " was still Terminating "
                + AFTER.toSeconds()
                + " s after its deletion deadline "
                + pod.getMetadata().getDeletionTimestamp()
                + " (its node is unreachable): deleted it with grace period 0 so that runner "
                + RunnerResources.runnerName(job)
                + " can start again; a runner left on that node cannot commit to the snapshot"
                + " storage (fenced by its epoch)";
    }

    private static String namespace(Pod pod) {
        return pod.getMetadata().getNamespace();
    }
}
