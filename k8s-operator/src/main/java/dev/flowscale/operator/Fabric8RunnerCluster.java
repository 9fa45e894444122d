package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link RunnerCluster} on the Fabric8 client. Writes with create-or-replace (not server-side
 * apply), which works the same on a real API server and on Fabric8's mock server. A resource whose
 * desired state is unchanged (same {@value #HASH_ANNOTATION}) is not written again, so a
 * reconcile that changes nothing writes nothing.
 */
public final class Fabric8RunnerCluster implements RunnerCluster {
    private final KubernetesClient client;

    public Fabric8RunnerCluster(KubernetesClient client) {
        this.client = client;
    }

    static final String HASH_ANNOTATION = "flowscale.dev/desired-hash";

    @Override
    public void apply(HasMetadata desired) {
        if (desired instanceof Secret) {
            // A Secret's content is generated once (a random token): create it, never replace it.
            var secret = client.resource(desired).inNamespace(desired.getMetadata().getNamespace());
            if (secret.get() == null) {
                secret.create();
            }
            return;
        }
        if (upToDate(desired)) {
            return;
        }
        client.resource(desired).inNamespace(desired.getMetadata().getNamespace())
                .createOr(NonDeletingOperation::update);
    }

    /** Stamps {@code desired} with the hash of its content and compares it with the stored one's. */
    @Override
    public boolean upToDate(HasMetadata desired) {
        Map<String, String> annotations = new LinkedHashMap<>(annotations(desired));
        annotations.remove(HASH_ANNOTATION);
        desired.getMetadata().setAnnotations(annotations);
        String hash = Integer.toHexString(Serialization.asJson(desired).hashCode());
        annotations.put(HASH_ANNOTATION, hash);
        HasMetadata existing = client.resource(desired).inNamespace(desired.getMetadata().getNamespace()).get();
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

    @Override
    public int readyReplicas(String namespace, String deploymentName) {
        Deployment d = client.apps().deployments().inNamespace(namespace).withName(deploymentName).get();
        if (d == null || d.getStatus() == null || d.getStatus().getReadyReplicas() == null) {
            return 0;
        }
        return d.getStatus().getReadyReplicas();
    }
}
