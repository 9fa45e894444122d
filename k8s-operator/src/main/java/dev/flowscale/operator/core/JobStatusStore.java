package dev.flowscale.operator.core;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The autoscaler loops' status writer (decisions, and the parallelism a SCALE decision asks for):
 * each write reads the latest version, applies the change and replaces it with optimistic
 * concurrency, applying the change again to a fresh copy on a conflict (the reconciler, or a former
 * leader, wrote in between) after a short random pause. It writes once per decision, never per
 * sample; the reconciler writes through {@link ReconcileStatus}, so no lock is shared between the
 * two.
 */
public final class JobStatusStore {
    static final int ATTEMPTS = 8;
    private final KubernetesClient client;

    public JobStatusStore(KubernetesClient client) {
        this.client = client;
    }

    /** The job as the API server has it now, or null when it has been deleted. */
    public StreamJob latest(String namespace, String name) {
        return client.resources(StreamJob.class).inNamespace(namespace).withName(name).get();
    }

    /**
     * Applies {@code change} to the latest status and writes it, retrying on a conflict.
     *
     * @return the job as written, or null when it has been deleted
     */
    public StreamJob edit(String namespace, String name, Consumer<StreamJobStatus> change) {
        for (int attempt = 1; ; attempt++) {
            StreamJob job = latest(namespace, name);
            if (job == null) {
                return null;
            }
            if (job.getStatus() == null) {
                job.setStatus(new StreamJobStatus());
            }
            change.accept(job.getStatus());
            try {
                return client.resources(StreamJob.class)
                        .inNamespace(namespace)
                        .resource(job)
                        .updateStatus();
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == ATTEMPTS) {
                    throw e;
                }
                // A random pause that grows, so two writers that keep colliding fall out of step.
                LockSupport.parkNanos(
                        Duration.ofMillis(ThreadLocalRandom.current().nextLong(1, 10L * attempt))
                                .toNanos());
            }
        }
    }
}
