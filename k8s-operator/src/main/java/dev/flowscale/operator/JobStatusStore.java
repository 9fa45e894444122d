package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one writer of StreamJob status, shared by the reconciler and the job's autoscaler loop.
 * Within this operator, work on a job that reads its status and acts on it (apply the runner,
 * record a rescale) runs under the job's lock ({@link #locked}), so the two never interleave; on
 * the API server, each status write replaces the latest version with optimistic concurrency and is
 * applied again to a fresh copy on a conflict (another writer, such as a former leader).
 */
final class JobStatusStore {
    static final int ATTEMPTS = 5;
    private final KubernetesClient client;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    JobStatusStore(KubernetesClient client) {
        this.client = client;
    }

    /** Runs {@code work} holding the job's lock (reentrant: {@link #edit} inside it is fine). */
    <T> T locked(String namespace, String name, Supplier<T> work) {
        ReentrantLock lock = locks.computeIfAbsent(namespace + "/" + name, key -> new ReentrantLock());
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** The job as the API server has it now, or null when it has been deleted. */
    StreamJob latest(String namespace, String name) {
        return client.resources(StreamJob.class).inNamespace(namespace).withName(name).get();
    }

    /**
     * Applies {@code change} to the latest status and writes it, retrying on a conflict.
     *
     * @return the job as written, or null when it has been deleted
     */
    StreamJob edit(String namespace, String name, Consumer<StreamJobStatus> change) {
        return locked(namespace, name, () -> write(namespace, name, change));
    }

    private StreamJob write(String namespace, String name, Consumer<StreamJobStatus> change) {
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
                return client.resources(StreamJob.class).inNamespace(namespace).resource(job).updateStatus();
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Forgets the lock of a deleted job. */
    void forget(String namespace, String name) {
        locks.remove(namespace + "/" + name);
    }
}
