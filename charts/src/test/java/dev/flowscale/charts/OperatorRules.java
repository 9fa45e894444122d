package dev.flowscale.charts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operator's RBAC rules as a set of "apiGroup resource verb" grants, so rule lists that grant
 * the same things compare equal whatever their order or grouping.
 */
final class OperatorRules {
    private OperatorRules() {}

    /**
     * The ClusterRole or the watched namespaces' Roles that grant the operator its rules (not the
     * leader election's Role nor the CRD reader's ClusterRole).
     */
    static List<JsonNode> grants(Rendered rendered) {
        return rendered.objects().stream()
                .filter(o -> o.path("kind").asText().endsWith("Role"))
                .filter(o -> !o.at("/metadata/name").asText().endsWith("-leader"))
                .filter(o -> !o.at("/metadata/name").asText().endsWith("-crd"))
                .toList();
    }

    static Set<String> of(JsonNode role) {
        Set<String> grants = new TreeSet<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    for (JsonNode verb : rule.path("verbs")) {
                        grants.add(group.asText() + " " + resource.asText() + " " + verb.asText());
                    }
                }
            }
        }
        return grants;
    }
}
