package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a real API server deletes a pod whose node is lost, for {@link OptimisticMockServer}: a
 * delete without grace period 0 only marks it (metadata.deletionTimestamp = now + its grace period,
 * the deadline for its kubelet), and it stays Terminating, as its kubelet never confirms; a delete
 * with grace period 0 removes it. The mock server removes an object marked for deletion as soon as
 * it has no finalizers, so a marked pod is stored with the finalizer {@value #KUBELET}, which
 * stands for the kubelet's confirmation that never comes, and loses it on a delete with grace
 * period 0.
 */
final class LostNodes {
    static final String KUBELET = "test.flowscale.dev/kubelet-confirms-deletion";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Set<String> nodes = new HashSet<>();
    private final Supplier<Instant> clock;
    private final List<String> forced = new ArrayList<>();

    LostNodes(Supplier<Instant> clock) {
        this.clock = clock;
    }

    synchronized void lose(String node) {
        nodes.add(node);
    }

    /** The deletes with grace period 0 served (method and path), for checking them against RBAC. */
    synchronized List<String> forcedDeletes() {
        return List.copyOf(forced);
    }

    /**
     * Serves a DELETE of a pod on a lost node, or answers null (served as usual).
     *
     * @param find the stored resource at a path
     * @param store writes a resource at a path (an update)
     */
    synchronized MockResponse delete(
            RecordedRequest request,
            Function<String, Map.Entry<?, String>> find,
            BiConsumer<String, JsonNode> store) {
        String path = request.getPath().replaceAll("\\?.*$", "");
        Map.Entry<?, String> stored =
                path.matches(".*/api/v1/namespaces/[^/]+/pods/[^/]+") ? find.apply(path) : null;
        ObjectNode pod = stored == null ? null : (ObjectNode) read(stored.getValue());
        if (pod == null || !nodes.contains(pod.path("spec").path("nodeName").asText())) {
            return null;
        }
        ObjectNode meta = (ObjectNode) pod.path("metadata");
        if (graceZero(request)) {
            forced.add("DELETE " + request.getPath());
            meta.remove("finalizers");
            meta.put("deletionTimestamp", clock.get().toString());
            store.accept(path, pod); // unmarked by its last finalizer: the mock removes it
            return new MockResponse().setResponseCode(200).setBody(pod.toString());
        }
        if (!meta.has("deletionTimestamp")) {
            long grace = pod.path("spec").path("terminationGracePeriodSeconds").asLong(30);
            meta.put("deletionTimestamp", clock.get().plusSeconds(grace).toString());
            meta.put("deletionGracePeriodSeconds", grace);
            meta.putArray("finalizers").add(KUBELET);
            store.accept(path, pod);
        }
        return new MockResponse().setResponseCode(200).setBody(pod.toString());
    }

    private static boolean graceZero(RecordedRequest request) {
        if (request.getPath().matches(".*[?&]gracePeriodSeconds=0(&.*)?$")) {
            return true;
        }
        String body = new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
        return !body.isBlank() && read(body).path("gracePeriodSeconds").asLong(-1) == 0;
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
