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
        List<?> items = Serialization.unmarshal(MANIFEST, List.class);
        return items.stream()
                .map(i -> Serialization.unmarshal(Serialization.asJson(i), HasMetadata.class))
                .toList();
    }
}
