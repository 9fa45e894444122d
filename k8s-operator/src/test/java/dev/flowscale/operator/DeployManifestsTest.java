package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifests the README tells users to apply stay in step with the model and the operator. */
class DeployManifestsTest {
    static final Path DEPLOY = Path.of("deploy");

    @Test
    void theExampleStreamJobParsesAndHasNoProblems() throws IOException {
        String streamJobDocument =
                List.of(Files.readString(DEPLOY.resolve("example-streamjob.yaml")).split("\n---\n"))
                        .stream()
                        .filter(doc -> doc.contains("kind: StreamJob"))
                        .findFirst()
                        .orElseThrow();
        StreamJob job = Serialization.unmarshal(streamJobDocument, StreamJob.class);
        assertThat(SpecValidator.problems(job.getSpec())).isEmpty();
        assertThat(job.getSpec().autoscaler.mode).isEqualTo(AutoscalerMode.RECOMMEND);
    }

    @Test
    void theOperatorRoleDeletesOnlyPodsAndGrantsOnlyTheResourcesTheOperatorUses()
            throws IOException {
        ClusterRole role = clusterRole("flowscale-operator");
        // Deleting a runner pod stuck Terminating on a lost node is the only delete: the runner's
        // own resources go with their StreamJob (owner references).
        assertThat(role.getRules())
                .allSatisfy(
                        rule -> {
                            assertThat(rule.getVerbs()).doesNotContain("*");
                            if (!rule.getResources().equals(java.util.List.of("pods"))) {
                                assertThat(rule.getVerbs()).doesNotContain("delete");
                            }
                        });
        assertThat(role.getRules())
                .flatExtracting(r -> r.getResources())
                .containsExactlyInAnyOrder(
                        "streamjobs",
                        "streamjobs/status",
                        "streamjobs/finalizers",
                        "deployments",
                        "pods",
                        "pods/resize",
                        "services",
                        "configmaps",
                        "secrets",
                        "persistentvolumeclaims",
                        "events",
                        "flinkdeployments");
    }

    @Test
    void clusterWideTheCrdReaderMayOnlyGetTheStreamJobCrd() throws IOException {
        ClusterRole role = clusterRole("flowscale-operator-crd");
        assertThat(role.getRules())
                .singleElement()
                .satisfies(
                        rule -> {
                            assertThat(rule.getResources())
                                    .containsExactly("customresourcedefinitions");
                            assertThat(rule.getResourceNames())
                                    .containsExactly(StreamJobCrdCheck.NAME);
                            assertThat(rule.getVerbs()).containsExactly("get");
                        });
    }

    @Test
    void leaderElectionMayOnlyTouchLeasesInTheOperatorsNamespace() throws IOException {
        Role role =
                resources("operator.yaml").stream()
                        .filter(Role.class::isInstance)
                        .map(Role.class::cast)
                        .findFirst()
                        .orElseThrow();
        assertThat(role.getMetadata().getNamespace()).isEqualTo("flowscale-system");
        assertThat(role.getRules())
                .singleElement()
                .satisfies(
                        rule -> {
                            assertThat(rule.getResources()).containsExactly("leases");
                            assertThat(rule.getVerbs())
                                    .containsExactlyInAnyOrder("get", "create", "update", "patch");
                        });
    }

    private static ClusterRole clusterRole(String name) throws IOException {
        return resources("operator.yaml").stream()
                .filter(ClusterRole.class::isInstance)
                .map(ClusterRole.class::cast)
                .filter(r -> r.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The objects of a manifest in deploy/. */
    static List<HasMetadata> resources(String file) throws IOException {
        try (InputStream in = Files.newInputStream(DEPLOY.resolve(file))) {
            Object parsed = Serialization.unmarshal(in);
            return parsed instanceof KubernetesResourceList<?> list
                    ? List.copyOf(list.getItems())
                    : parsed instanceof List<?> l
                            ? l.stream().map(HasMetadata.class::cast).toList()
                            : List.of((HasMetadata) parsed);
        }
    }
}
