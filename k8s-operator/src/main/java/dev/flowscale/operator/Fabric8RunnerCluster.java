package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link RunnerCluster} on the Fabric8 client. Writes with create or replace (not server-side
 * apply), which works the same on a real API server and on Fabric8's mock server; a replace names
 * the resourceVersion of the cached copy, so a stale cache gets 409 and the pass is retried. A
 * resource whose desired state is unchanged (same {@value #HASH_ANNOTATION}) is not written again,
 * so a reconcile that changes nothing writes nothing.
 */
public final class Fabric8RunnerCluster implements RunnerCluster {
    static final String HASH_ANNOTATION = "flowscale.dev/desired-hash";
    private final KubernetesClient client;

    public Fabric8RunnerCluster(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public void apply(HasMetadata desired, HasMetadata existing) {
        if (desired instanceof Secret) {
            createOnce(desired);
            return;
        }
        if (upToDate(desired, existing)) {
            return;
        }
        String ns = desired.getMetadata().getNamespace();
        if (existing == null) {
            // The cache may not show a resource this operator created a moment ago: then replace it.
            client.resource(desired).inNamespace(ns).createOr(NonDeletingOperation::update);
        } else {
            desired.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
            client.resource(desired).inNamespace(ns).update();
        }
    }

    /**
     * A Secret's content is generated once (a random token): create it when a get finds none, never
     * replace it. Read with a get, not a cache: the operator needs no list or watch on Secrets.
     */
    private void createOnce(HasMetadata desired) {
        var secret = client.resource(desired).inNamespace(desired.getMetadata().getNamespace());
        if (secret.get() == null) {
            secret.create();
        }
    }

    /** Stamps {@code desired} with the hash of its content and compares it with the existing one's. */
    @Override
    public boolean upToDate(HasMetadata desired, HasMetadata existing) {
        Map<String, String> annotations = new LinkedHashMap<>(annotations(desired));
        annotations.remove(HASH_ANNOTATION);
        desired.getMetadata().setAnnotations(annotations);
        String hash = Integer.toHexString(Serialization.asJson(desired).hashCode());
        annotations.put(HASH_ANNOTATION, hash);
        return existing != null && hash.equals(annotations(existing).get(HASH_ANNOTATION));
    }

    private static Map<String, String> annotations(HasMetadata resource) {
        Map<String, String> annotations = resource.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }

    @Override
    public boolean claimExists(String namespace, String claimName) {
        return client.persistentVolumeClaims().inNamespace(namespace).withName(claimName).get() != null;
    }
}
