package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The pods' {@code resize} subresource as a Kubernetes 1.33+ API server serves it, for {@link
 * OptimisticMockServer}: a strategic merge patch (what {@code kubectl patch --subresource resize}
 * sends; containers merge by name) may change only the cpu and memory of containers' requests and
 * limits (422 otherwise); a JSON merge patch would replace the container list and is refused as
 * invalid (the containers lose their image); a change of container resources through the pod itself
 * is forbidden (422), as on a real server, and so is lowering a memory limit unless the container's
 * resizePolicy restarts it for memory (Kubernetes 1.33's rule). The kubelet's side (conditions,
 * actual resources) is {@link LocalScheduler}'s.
 */
final class PodResizeApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> RESIZABLE = Set.of("cpu", "memory");
    private final List<String> requests = new ArrayList<>();

    synchronized List<String> requests() {
        return List.copyOf(requests);
    }

    /**
     * Applies a resize patch to the stored pod at {@code podPath} through {@code update} (a PUT of
     * the pod).
     */
    MockResponse patch(
            RecordedRequest request,
            String podPath,
            Function<String, Map.Entry<AttributeSet, String>> stored,
            Function<RecordedRequest, MockResponse> update) {
        synchronized (this) {
            requests.add(request.getMethod() + " " + request.getPath());
        }
        String type = String.valueOf(request.getHeader("Content-Type"));
        if (type.startsWith("application/merge-patch+json")) {
            return invalid(podPath, "spec.containers[0].image: Required value");
        }
        if (!type.startsWith("application/strategic-merge-patch+json")) {
            return status(
                    415,
                    "UnsupportedMediaType",
                    "the body of the request was in an unknown format");
        }
        Map.Entry<AttributeSet, String> pod = stored.apply(podPath);
        if (pod == null) {
            return status(
                    404, "NotFound", "pods \"" + podPath.replaceAll(".*/", "") + "\" not found");
        }
        try {
            ObjectNode current = (ObjectNode) JSON.readTree(pod.getValue());
            String problem = merge(current, JSON.readTree(body(request)));
            if (problem != null) {
                return invalid(podPath, problem);
            }
            return update.apply(
                    new RecordedRequest(
                            request.getHttpVersion(),
                            io.fabric8.mockwebserver.dsl.HttpMethod.PUT,
                            podPath,
                            request.getHeaders(),
                            new io.fabric8.mockwebserver.http.Buffer(
                                    JSON.writeValueAsBytes(current))));
        } catch (IOException e) {
            return status(400, "BadRequest", e.getMessage());
        }
    }

    /**
     * Merges the patch's containers (by name) into the pod; a problem as the API server words it,
     * or null.
     */
    private static String merge(ObjectNode pod, JsonNode patch) {
        Iterator<String> top = patch.fieldNames();
        while (top.hasNext()) {
            if (!top.next().equals("spec")) {
                return "metadata: Forbidden: only spec.containers[*].resources may be changed through resize";
            }
        }
        for (JsonNode c : patch.path("spec").path("containers")) {
            ObjectNode target = container(pod, c.path("name").asText());
            if (target == null || c.size() != 2 || !c.has("resources")) {
                return "spec.containers: Forbidden: only the resources of existing containers may be resized";
            }
            for (String part : List.of("requests", "limits")) {
                Iterator<String> names = c.path("resources").path(part).fieldNames();
                while (names.hasNext()) {
                    String name = names.next();
                    JsonNode value = c.path("resources").path(part).get(name);
                    if (part.equals("limits")
                            && name.equals("memory")
                            && lowers(target, value)
                            && !restartsOnMemory(target)) {
                        return "spec.containers[0].resources.limits[memory]: Forbidden: memory"
                                + " limits cannot be decreased unless resizePolicy is"
                                + " RestartContainer";
                    }
                    if (!RESIZABLE.contains(name)) {
                        return "spec.containers[0].resources."
                                + part
                                + "["
                                + name
                                + "]: Forbidden: only cpu and"
                                + " memory resources are mutable";
                    }
                    ((ObjectNode) target.with("resources").with(part))
                            .set(name, c.path("resources").path(part).get(name));
                }
            }
        }
        return null;
    }

    /** Whether the patch's memory limit is below the container's (Kubernetes 1.33 refuses it). */
    private static boolean lowers(ObjectNode container, JsonNode limit) {
        JsonNode current = container.path("resources").path("limits").path("memory");
        return !current.isMissingNode()
                && limit != null
                && Quantity.getAmountInBytes(new Quantity(limit.asText()))
                                .compareTo(
                                        Quantity.getAmountInBytes(new Quantity(current.asText())))
                        < 0;
    }

    private static boolean restartsOnMemory(ObjectNode container) {
        for (JsonNode policy : container.path("resizePolicy")) {
            if (policy.path("resourceName").asText().equals("memory")) {
                return policy.path("restartPolicy").asText().equals("RestartContainer");
            }
        }
        return false;
    }

    private static ObjectNode container(ObjectNode pod, String name) {
        for (JsonNode c : pod.path("spec").path("containers")) {
            if (name.equals(c.path("name").asText())) {
                return (ObjectNode) c;
            }
        }
        return null;
    }

    /** Whether a patch of the pod itself names container resources. */
    static boolean touchesResources(RecordedRequest request) {
        return body(request).contains("\"resources\"");
    }

    /** Whether a PUT of the pod changes its containers' resources. */
    static boolean changesResources(
            Map.Entry<AttributeSet, String> stored, RecordedRequest request) {
        if (stored == null) {
            return false;
        }
        try {
            return !JSON.readTree(stored.getValue())
                    .path("spec")
                    .path("containers")
                    .findValues("resources")
                    .equals(
                            JSON.readTree(body(request))
                                    .path("spec")
                                    .path("containers")
                                    .findValues("resources"));
        } catch (IOException e) {
            return false;
        }
    }

    static MockResponse onlyThroughResize(String path) {
        return invalid(
                path,
                "spec: Forbidden: pod updates may not change fields other than"
                        + " `spec.containers[*].image`, ...; resources are changed through the resize subresource");
    }

    /** What a server without the subresource answers. */
    static MockResponse notFound() {
        return status(404, "NotFound", "the server could not find the requested resource");
    }

    private static MockResponse invalid(String path, String detail) {
        return status(
                422,
                "Invalid",
                "Pod \""
                        + path.replaceAll("\\?.*$", "").replaceAll(".*/", "")
                        + "\" is invalid: "
                        + detail);
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse()
                .setResponseCode(code)
                .setBody(
                        Serialization.asJson(
                                new StatusBuilder()
                                        .withCode(code)
                                        .withReason(reason)
                                        .withStatus("Failure")
                                        .withMessage(message)
                                        .build()));
    }

    private static String body(RecordedRequest request) {
        return new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }
}
