package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class RbacTemplateTest {
    static final List<ValuesCase> CASES = ValuesCase.DOCUMENTED;
    private static final String OPERATOR = "flowscale-operator";

    @Test
    void watchingEveryNamespaceGrantsOneClusterRoleAndNoNamespacedRoles() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("defaults"));

        JsonNode binding = rendered.one("ClusterRoleBinding", OPERATOR);
        assertThat(binding.at("/roleRef/name").asText())
                .isEqualTo(rendered.one("ClusterRole", OPERATOR).at("/metadata/name").asText());
        assertThat(binding.at("/subjects/0/namespace").asText())
                .isEqualTo(FlowscaleChart.NAMESPACE);
        assertThat(rendered.ofKind("Role"))
                .extracting(r -> r.at("/metadata/name").asText())
                .containsExactly(OPERATOR + "-leader");
    }

    @Test
    void watchingTwoNamespacesGrantsARoleInEachAndClusterWideOnlyTheCrdByName() {
        Rendered rendered = FlowscaleChart.template(ValuesCase.named("namespaced watch"));

        assertThat(rendered.ofKind("ClusterRole"))
                .singleElement()
                .satisfies(
                        role ->
                                assertThat(role.path("rules").toString())
                                        .isEqualTo(
                                                "[{\"apiGroups\":[\"apiextensions.k8s.io\"],"
                                                        + "\"resources\":[\"customresourcedefinitions\"],"
                                                        + "\"resourceNames\":[\"streamjobs.flowscale.dev\"],"
                                                        + "\"verbs\":[\"get\"]}]"));
        assertThat(rendered.ofKind("ClusterRoleBinding"))
                .extracting(b -> b.at("/roleRef/name").asText())
                .containsExactly(OPERATOR + "-crd");
        for (String namespace : List.of("team-a", "team-b")) {
            assertThat(namespaced(rendered, "Role", namespace).path("rules").size()).isEqualTo(10);
            JsonNode binding = namespaced(rendered, "RoleBinding", namespace);
            assertThat(binding.at("/roleRef/kind").asText()).isEqualTo("Role");
            assertThat(binding.at("/roleRef/name").asText()).isEqualTo(OPERATOR);
            assertThat(binding.at("/subjects/0/name").asText()).isEqualTo(OPERATOR);
            assertThat(binding.at("/subjects/0/namespace").asText())
                    .isEqualTo(FlowscaleChart.NAMESPACE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void leaderElectionMayOnlyGetCreateUpdateAndPatchLeasesInTheReleaseNamespace(
            ValuesCase values) {
        Rendered rendered = FlowscaleChart.template(values);

        JsonNode role = rendered.one("Role", OPERATOR + "-leader");
        assertThat(role.at("/metadata/namespace").asText()).isEqualTo(FlowscaleChart.NAMESPACE);
        assertThat(role.at("/rules").toString())
                .isEqualTo(
                        "[{\"apiGroups\":[\"coordination.k8s.io\"],"
                                + "\"resources\":[\"leases\"],\"verbs\":[\"get\",\"create\",\"update\",\"patch\"]}]");
        JsonNode binding = rendered.one("RoleBinding", OPERATOR + "-leader");
        assertThat(binding.at("/metadata/namespace").asText()).isEqualTo(FlowscaleChart.NAMESPACE);
        assertThat(binding.at("/roleRef/name").asText()).isEqualTo(OPERATOR + "-leader");
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void theClusterRoleAndEveryWatchedNamespacesRoleCarryTheSameRules(ValuesCase values) {
        Rendered rendered = FlowscaleChart.template(values);

        List<JsonNode> grants = OperatorRules.grants(rendered);
        assertThat(grants).isNotEmpty();
        assertThat(grants)
                .allSatisfy(
                        g ->
                                assertThat(OperatorRules.of(g))
                                        .isEqualTo(OperatorRules.of(grants.get(0))));
    }

    private static JsonNode namespaced(Rendered rendered, String kind, String namespace) {
        return rendered.ofKind(kind).stream()
                .filter(o -> namespace.equals(o.at("/metadata/namespace").asText()))
                .filter(o -> OPERATOR.equals(o.at("/metadata/name").asText()))
                .findFirst()
                .orElseThrow(
                        () ->
                                new AssertionError(
                                        "no "
                                                + kind
                                                + " "
                                                + OPERATOR
                                                + " in namespace "
                                                + namespace));
    }
}
