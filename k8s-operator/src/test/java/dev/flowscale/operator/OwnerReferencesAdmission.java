package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The OwnerReferencesPermissionEnforcement admission plugin (Kubernetes' plugin/pkg/admission/gc;
 * on in OpenShift and wherever a cluster enables it), for creates and updates: an update that
 * changes an object's ownerReferences needs {@code delete} on that object; every owner reference
 * that newly blocks its owner's deletion ({@code blockOwnerDeletion: true}, new or changed from
 * false) needs {@code update} on the owner's {@code finalizers} subresource, by name, in the
 * object's namespace. Pods' status is exempt, as in the plugin. A patch that touches
 * ownerReferences is refused: its result is not computed here.
 */
final class OwnerReferencesAdmission {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The API server's REST mapping for the owners' kinds: API group to kind to resource. */
    private static final Map<String, String> RESOURCES =
            Map.of(
                    "flowscale.dev/StreamJob", "streamjobs",
                    "apps/Deployment", "deployments",
                    "apps/ReplicaSet", "replicasets",
                    "flink.apache.org/FlinkDeployment", "flinkdeployments");

    private final ManifestAuthorizer rules;
    private final Consumer<ApiCall> checked;

    /** Authorizes with {@code rules}, telling {@code checked} each call it authorizes. */
    OwnerReferencesAdmission(ManifestAuthorizer rules, Consumer<ApiCall> checked) {
        this.rules = rules;
        this.checked = checked;
    }

    private boolean allows(String namespace, ApiCall call, String name) {
        checked.accept(call);
        return rules.allows(namespace, call, name);
    }

    /** Why the plugin refuses the request, or empty when it admits it. */
    Optional<String> refusal(
            RecordedRequest request, ApiCall call, OptimisticMockServer.Served server) {
        String verb = call.verb();
        if (call.resource().equals("pods/status")
                || !(verb.equals("create") || verb.equals("update") || verb.equals("patch"))) {
            return Optional.empty();
        }
        if (verb.equals("patch")) {
            return body(request).contains("ownerReferences")
                    ? Optional.of(
                            "this test's API server does not compute a patch of ownerReferences:"
                                    + " write owner references with create or update")
                    : Optional.empty();
        }
        JsonNode written = read(body(request));
        String old = verb.equals("create") ? null : server.stored(request.getPath());
        return refusal(
                call,
                ApiCall.namespace(request.getPath()),
                written,
                old == null ? null : read(old));
    }

    private Optional<String> refusal(
            ApiCall call, String namespace, JsonNode written, JsonNode old) {
        List<JsonNode> refs = refs(written);
        boolean changing = old == null ? !refs.isEmpty() : !refs.equals(refs(old));
        if (!changing) {
            return Optional.empty();
        }
        String name = written.path("metadata").path("name").asText();
        if (old != null
                && !allows(namespace, new ApiCall(call.group(), call.resource(), "delete"), name)) {
            return Optional.of("cannot set an ownerRef on a resource you can't delete");
        }
        for (JsonNode ref : newlyBlocking(refs, old == null ? List.of() : refs(old))) {
            String group = ref.path("apiVersion").asText().replaceAll("/?[^/]*$", "");
            String resource = RESOURCES.get(group + "/" + ref.path("kind").asText());
            if (resource == null) {
                return Optional.of(
                        "cannot set blockOwnerDeletion in this case because cannot find"
                                + " RESTMapping for APIVersion "
                                + ref.path("apiVersion").asText()
                                + " Kind "
                                + ref.path("kind").asText());
            }
            ApiCall finalizers = new ApiCall(group, resource + "/finalizers", "update");
            if (!allows(namespace, finalizers, ref.path("name").asText())) {
                return Optional.of(
                        "cannot set blockOwnerDeletion if an ownerReference refers to a resource"
                                + " you can't set finalizers on: "
                                + finalizers
                                + " \""
                                + ref.path("name").asText()
                                + "\" is not granted");
            }
        }
        return Optional.empty();
    }

    /** The references that block deletion now and did not before (by the owner's uid). */
    private static List<JsonNode> newlyBlocking(List<JsonNode> refs, List<JsonNode> oldRefs) {
        List<JsonNode> blocking = new ArrayList<>();
        for (JsonNode ref : refs) {
            if (!ref.path("blockOwnerDeletion").asBoolean(false)) {
                continue;
            }
            boolean blockedBefore =
                    oldRefs.stream()
                            .anyMatch(
                                    o ->
                                            o.path("uid").equals(ref.path("uid"))
                                                    && o.path("blockOwnerDeletion")
                                                            .asBoolean(false));
            if (!blockedBefore) {
                blocking.add(ref);
            }
        }
        return blocking;
    }

    private static List<JsonNode> refs(JsonNode object) {
        List<JsonNode> refs = new ArrayList<>();
        object.path("metadata").path("ownerReferences").forEach(refs::add);
        return refs;
    }

    /** The request's body, left in place for the server behind the check. */
    static String body(RecordedRequest request) {
        return new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
