package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestAuthorizerTest {
    static final String MANIFEST =
            """
            - apiVersion: rbac.authorization.k8s.io/v1
              kind: ClusterRole
              metadata: {name: op}
              rules: [{apiGroups: [apps], resources: [deployments], verbs: [get]}]
            - apiVersion: rbac.authorization.k8s.io/v1
              kind: ClusterRoleBinding
              metadata: {name: op}
              roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
              subjects: [{kind: ServiceAccount, name: op, namespace: sys}]
            - apiVersion: rbac.authorization.k8s.io/v1
              kind: Role
              metadata: {name: leader, namespace: sys}
              rules: [{apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, patch]}]
            - apiVersion: rbac.authorization.k8s.io/v1
              kind: RoleBinding
              metadata: {name: leader, namespace: sys}
              roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: leader}
              subjects: [{kind: ServiceAccount, name: op, namespace: sys}]
            """;

    /** Subresources and resourceNames, bound cluster-wide. */
    static final String RULES =
            """
            - apiVersion: rbac.authorization.k8s.io/v1
              kind: ClusterRole
              metadata: {name: op}
              rules:
              - {apiGroups: [flowscale.dev], resources: [streamjobs], verbs: [update]}
              - {apiGroups: [flowscale.dev], resources: ["*/finalizers"], verbs: [update]}
              - apiGroups: [apiextensions.k8s.io]
                resources: [customresourcedefinitions]
                resourceNames: [streamjobs.flowscale.dev]
                verbs: [get]
            - apiVersion: rbac.authorization.k8s.io/v1
              kind: ClusterRoleBinding
              metadata: {name: op}
              roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
              subjects: [{kind: ServiceAccount, name: op, namespace: sys}]
            """;

    @Test
    void aClusterRoleBindingGrantsInEveryNamespaceAndARoleBindingOnlyInItsOwn() {
        ManifestAuthorizer rbac = new ManifestAuthorizer(manifest(), "sys", "op");

        assertThat(rbac.allows("jobs", new ApiCall("apps", "deployments", "get"))).isTrue();
        assertThat(rbac.allows(null, new ApiCall("apps", "deployments", "get"))).isTrue();
        assertThat(rbac.allows("sys", new ApiCall("coordination.k8s.io", "leases", "patch")))
                .isTrue();
        assertThat(rbac.allows("jobs", new ApiCall("coordination.k8s.io", "leases", "patch")))
                .isFalse();
    }

    @Test
    void aVerbTheRulesDoNotListIsDenied() {
        ManifestAuthorizer rbac = new ManifestAuthorizer(manifest(), "sys", "op");

        assertThat(rbac.allows("sys", new ApiCall("coordination.k8s.io", "leases", "update")))
                .isFalse();
        assertThat(rbac.allows("jobs", new ApiCall("apps", "deployments", "update"))).isFalse();
    }

    @Test
    void aResourceGrantsNoneOfItsSubresourcesButAStarSubresourceRuleGrantsThatOneOfEvery() {
        ManifestAuthorizer rbac = new ManifestAuthorizer(manifest(RULES), "sys", "op");

        assertThat(rbac.allows("jobs", new ApiCall("flowscale.dev", "streamjobs", "update")))
                .isTrue();
        assertThat(rbac.allows("jobs", new ApiCall("flowscale.dev", "streamjobs/status", "update")))
                .isFalse();
        assertThat(
                        rbac.allows(
                                "jobs",
                                new ApiCall("flowscale.dev", "streamjobs/finalizers", "update")))
                .isTrue();
        assertThat(rbac.allows("jobs", new ApiCall("apps", "deployments/finalizers", "update")))
                .isFalse();
    }

    @Test
    void resourceNamesGrantOnlyTheNamedObjects() {
        ManifestAuthorizer rbac = new ManifestAuthorizer(manifest(RULES), "sys", "op");
        ApiCall getCrd = new ApiCall("apiextensions.k8s.io", "customresourcedefinitions", "get");

        assertThat(rbac.allows(null, getCrd, "streamjobs.flowscale.dev")).isTrue();
        assertThat(rbac.allows(null, getCrd, "flinkdeployments.flink.apache.org")).isFalse();
        assertThat(rbac.allows(null, getCrd, null)).as("a call without a name").isFalse();
    }

    @Test
    void anotherServiceAccountIsGrantedNothing() {
        ManifestAuthorizer rbac = new ManifestAuthorizer(manifest(), "sys", "someone-else");

        assertThat(rbac.rulesIn("sys")).isEmpty();
    }

    @Test
    void theOperatorManifestLetsTheLeaderElectionCheckPassInTheOperatorsNamespace()
            throws IOException {
        ManifestAuthorizer rbac = ManifestAuthorizer.operatorManifest();

        for (String verb : List.of("get", "create", "update", "patch")) {
            assertThat(
                            rbac.allows(
                                    "flowscale-system",
                                    new ApiCall("coordination.k8s.io", "leases", verb)))
                    .as("leases %s in flowscale-system", verb)
                    .isTrue();
        }
    }

    private static List<HasMetadata> manifest() {
        return manifest(MANIFEST);
    }

    private static List<HasMetadata> manifest(String yaml) {
        List<?> items = Serialization.unmarshal(yaml, List.class);
        return items.stream()
                .map(i -> Serialization.unmarshal(Serialization.asJson(i), HasMetadata.class))
                .toList();
    }
}
