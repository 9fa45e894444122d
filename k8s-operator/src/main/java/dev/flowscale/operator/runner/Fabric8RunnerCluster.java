package dev.flowscale.operator.runner;

import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.utils.URLUtils;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link RunnerCluster} on the Fabric8 client. Writes with create or replace (not server-side
 * apply), which works the same on a real API server and on Fabric8's mock server; a replace names
 * the resourceVersion of the cached copy, so a stale cache gets 409 and the pass is retried. A
 * resource whose desired state is unchanged (same {@value #HASH_ANNOTATION}) is not written again,
 * so a reconcile that changes nothing writes nothing.
 */
public final class Fabric8RunnerCluster implements RunnerCluster {
    public static final String HASH_ANNOTATION = "flowscale.dev/desired-hash";
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
            // The cache may not show a resource this operator created a moment ago: then replace
            // it.
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

    /**
     * Stamps {@code desired} with the hash of its content and compares it with the existing one's.
     */
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
    public Optional<Pod> pod(String namespace, Map<String, String> labels) {
        return client.pods().inNamespace(namespace).withLabels(labels).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .findFirst();
    }

    @Override
    public List<Pod> pods(String namespace, Map<String, String> labels) {
        return client.pods().inNamespace(namespace).withLabels(labels).list().getItems();
    }

    @Override
    public void forceDelete(Pod pod) {
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .withGracePeriod(0)
                .delete();
    }

    /**
     * Fabric8 7.6.1 has no typed call for the resize subresource (nor a generic subresource call),
     * so this sends the PATCH itself through the client's HTTP client (its authentication and TLS):
     * a strategic merge patch, which merges containers by name as {@code kubectl patch
     * --subresource resize} does; a JSON merge patch would replace the container list.
     */
    @Override
    public boolean resize(Pod pod, String container, ResourceRequirements resources) {
        String body =
                Serialization.asJson(
                        Map.of(
                                "spec",
                                Map.of(
                                        "containers",
                                        List.of(
                                                Map.of(
                                                        "name",
                                                        container,
                                                        "resources",
                                                        resources)))));
        String uri =
                URLUtils.join(
                        client.getMasterUrl().toString(),
                        "api",
                        "v1",
                        "namespaces",
                        pod.getMetadata().getNamespace(),
                        "pods",
                        pod.getMetadata().getName(),
                        "resize");
        HttpClient http = client.getHttpClient();
        HttpRequest request =
                http.newHttpRequestBuilder()
                        .uri(uri)
                        .method("PATCH", "application/strategic-merge-patch+json", body)
                        .build();
        try {
            HttpResponse<String> response =
                    http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
            if (response.code() == 404) {
                return false;
            }
            if (!response.isSuccessful()) {
                throw new OperatorException(
                        "resizing pod "
                                + pod.getMetadata().getNamespace()
                                + "/"
                                + pod.getMetadata().getName()
                                + " failed: HTTP "
                                + response.code()
                                + " "
                                + response.body());
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperatorException(
                    "interrupted while resizing pod " + pod.getMetadata().getName());
        } catch (ExecutionException | TimeoutException e) {
            throw new OperatorException(
                    "cannot reach the API server to resize pod "
                            + pod.getMetadata().getName()
                            + ": "
                            + e);
        }
    }

    @Override
    public boolean claimExists(String namespace, String claimName) {
        return client.persistentVolumeClaims().inNamespace(namespace).withName(claimName).get()
                != null;
    }
}
