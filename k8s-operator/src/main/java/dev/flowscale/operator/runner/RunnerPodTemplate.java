package dev.flowscale.operator.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Iterator;
import java.util.Map;

/**
 * The runner's pod template in three layers, each overriding the one before: defaults that pass Pod
 * Security {@code restricted} (non-root user, RuntimeDefault seccomp, no privilege escalation,
 * every capability dropped); the user's {@code spec.podTemplate} (image pull secrets, node
 * selector, tolerations, affinity, service account, env, volumes, labels, ...); and what the
 * operator owns (the runner container's image, command, arguments, ports, probe, resources, its own
 * volumes and env, the selector labels). Objects merge field by field; lists whose items have a
 * {@code name} (containers, volumes, env, volumeMounts, imagePullSecrets) merge item by item by
 * name; other lists of objects (tolerations, envFrom) are concatenated; lists of plain values
 * (command, args) are replaced.
 */
final class RunnerPodTemplate {
    /**
     * The runner image's user (deploy/runner.Dockerfile); the savepoint volume is made writable for
     * it.
     */
    static final long RUNNER_UID = 10001L;

    private RunnerPodTemplate() {}

    /**
     * {@code owned} over {@code user} (may be null) over the restricted defaults for the container
     * {@code container}.
     */
    static PodTemplateSpec merge(PodTemplateSpec owned, PodTemplateSpec user, String container) {
        JsonNode merged =
                overlay(tree(restrictedDefaults(container)), user == null ? null : tree(user));
        merged = overlay(merged, tree(owned));
        return Serialization.jsonMapper().convertValue(merged, PodTemplateSpec.class);
    }

    /**
     * What Pod Security {@code restricted} requires, as defaults: the pod runs as the runner
     * image's non-root user with the RuntimeDefault seccomp profile; the runner container may not
     * escalate privileges and drops every capability. The fsGroup makes a claim writable for that
     * user.
     */
    static PodTemplateSpec restrictedDefaults(String container) {
        return new PodTemplateSpecBuilder()
                .withNewSpec()
                .withNewSecurityContext()
                .withRunAsNonRoot(true)
                .withRunAsUser(RUNNER_UID)
                .withRunAsGroup(RUNNER_UID)
                .withFsGroup(RUNNER_UID)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .addNewContainer()
                .withName(container)
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withRunAsNonRoot(true)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .endContainer()
                .endSpec()
                .build();
    }

    private static JsonNode tree(Object value) {
        return Serialization.jsonMapper().valueToTree(value);
    }

    /**
     * {@code top} over {@code base}: see the class comment; a null or missing {@code top} keeps
     * {@code base}.
     */
    static JsonNode overlay(JsonNode base, JsonNode top) {
        if (top == null || top.isNull() || top.isMissingNode()) {
            return base;
        }
        if (base instanceof ObjectNode b && top instanceof ObjectNode t) {
            ObjectNode result = b.deepCopy();
            for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                result.set(field.getKey(), overlay(b.get(field.getKey()), field.getValue()));
            }
            return result;
        }
        if (base instanceof ArrayNode b && top instanceof ArrayNode t && objects(b) && objects(t)) {
            return named(b) && named(t) ? mergeByName(b, t) : b.deepCopy().addAll(t.deepCopy());
        }
        return top.deepCopy();
    }

    private static ArrayNode mergeByName(ArrayNode base, ArrayNode top) {
        ArrayNode result = base.deepCopy();
        for (JsonNode item : top) {
            int at = indexOf(result, item.get("name").asText());
            if (at < 0) {
                result.add(item.deepCopy());
            } else {
                result.set(at, overlay(result.get(at), item));
            }
        }
        return result;
    }

    private static int indexOf(ArrayNode items, String name) {
        for (int i = 0; i < items.size(); i++) {
            if (name.equals(items.get(i).path("name").asText(null))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean objects(ArrayNode items) {
        for (JsonNode item : items) {
            if (!item.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static boolean named(ArrayNode items) {
        for (JsonNode item : items) {
            if (!item.path("name").isTextual()) {
                return false;
            }
        }
        return true;
    }
}
