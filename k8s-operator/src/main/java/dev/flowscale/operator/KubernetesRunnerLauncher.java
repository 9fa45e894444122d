package dev.flowscale.operator;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.reconfig.RunnerLauncher;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Starts a StreamJob's runner at a new parallelism the Kubernetes way: records the parallelism
 * and the savepoint to restore from in status (phase Rescaling, so an operator restart resumes
 * from there and the reconciler keeps the same Deployment), then applies the runner Deployment
 * with those arguments; the Recreate strategy replaces the old pod. Used by the reconfigurator's
 * {@link dev.flowscale.reconfig.HttpRunnerScalingRealizer}, which stops the old runner with a
 * savepoint, waits for the new one and rolls back on timeout.
 */
public final class KubernetesRunnerLauncher implements RunnerLauncher {
    private final JobStatusStore store;
    private final RunnerCluster cluster;
    private final String namespace;
    private final String name;
    private final Function<StreamJob, URI> address;
    private final Clock clock;

    /** @param address the runner's API base URI, e.g. {@link #serviceAddress} in the cluster */
    KubernetesRunnerLauncher(JobStatusStore store, RunnerCluster cluster, String namespace, String name,
                             Function<StreamJob, URI> address, Clock clock) {
        this.store = store;
        this.cluster = cluster;
        this.namespace = namespace;
        this.name = name;
        this.address = address;
        this.clock = clock;
    }

    /** The runner's Service in cluster DNS: {@code http://<job>-runner.<namespace>.svc:9249}. */
    public static URI serviceAddress(StreamJob job) {
        return URI.create("http://" + RunnerResources.runnerName(job) + "." + job.getMetadata().getNamespace()
                + ".svc:" + RunnerResources.API_PORT);
    }

    @Override
    public URI start(Map<String, Integer> parallelism, Path restoreFrom) {
        Map<String, Integer> sorted = new TreeMap<>(parallelism);
        return store.locked(namespace, name, () -> {
            StreamJob job = store.edit(namespace, name, status -> {
                status.phase = JobPhase.Rescaling;
                status.parallelism = sorted;
                status.parallelismSummary = StreamJobReconciler.summary(sorted);
                status.lastSavepoint = restoreFrom == null ? status.lastSavepoint : restoreFrom.toString();
                Conditions.set(status, Conditions.SCALING, true, "Rescaling", "restarting the runner at "
                        + status.parallelismSummary + " from " + restoreFrom, status.observedGeneration,
                        clock.instant());
            });
            if (job == null) {
                throw new OperatorException("StreamJob " + namespace + "/" + name + " was deleted during a rescale");
            }
            cluster.apply(RunnerDeployment.desired(job, sorted, job.getStatus().lastSavepoint));
            return address.apply(job);
        });
    }

    /** Nothing to stop: the next {@link #start} replaces the runner's pod (Recreate strategy). */
    @Override
    public void stop(URI runner) {
    }
}
