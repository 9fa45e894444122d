package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the operator reaches a job's runner to control it: its pod's own address. The runner's
 * Service routes only to a ready runner (the autoscaler's samples go there), but the operator must
 * also reach a runner that is not ready to learn why (stopped with a savepoint, rescaling in place,
 * its job ended). Terminating pods are skipped: one on a lost node would only time out. Of several
 * pods (a replacement starting), the newest is the runner.
 */
public final class RunnerPodAddress implements Function<StreamJob, URI> {
    private final RunnerCluster cluster;

    public RunnerPodAddress(RunnerCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public URI apply(StreamJob job) {
        String namespace = job.getMetadata().getNamespace();
        return address(cluster.pods(namespace, RunnerResources.selector(job)))
                .orElseThrow(
                        () ->
                                new OperatorException(
                                        "runner "
                                                + namespace
                                                + "/"
                                                + RunnerResources.runnerName(job)
                                                + " has no running pod with an IP address yet;"
                                                + " check that the runner is up"));
    }

    /** The API address of the newest pod that is not terminating and has an IP address. */
    static Optional<URI> address(List<Pod> pods) {
        return pods.stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null)
                .max(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp()))
                .map(p -> uri(p.getStatus().getPodIP()));
    }

    private static URI uri(String ip) {
        String host = ip.contains(":") ? "[" + ip + "]" : ip; // IPv6
        return URI.create("http://" + host + ":" + RunnerResources.API_PORT);
    }
}
