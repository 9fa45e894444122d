package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OwnerReferencesAdmissionTest {
    static final String PATH = "/api/v1/namespaces/jobs/configmaps";
    static final ApiCall CREATE = new ApiCall("", "configmaps", "create");
    static final ApiCall UPDATE = new ApiCall("", "configmaps", "update");

    @Test
    void aBlockingReferenceToAStreamJobNeedsUpdateOnItsFinalizers() {
        String granted = "[create, update]";

        assertThat(refusal(rules(granted, false), CREATE, PATH, owned(true), null))
                .hasValueSatisfying(
                        r ->
                                assertThat(r)
                                        .startsWith("cannot set blockOwnerDeletion")
                                        .contains("flowscale.dev/streamjobs/finalizers update")
                                        .contains("\"wc\""));
        assertThat(refusal(rules(granted, true), CREATE, PATH, owned(true), null)).isEmpty();
    }

    @Test
    void aReferenceThatDoesNotBlockDeletionNeedsNoFinalizersGrant() {
        assertThat(refusal(rules("[create]", false), CREATE, PATH, owned(false), null)).isEmpty();
    }

    @Test
    void anUpdateThatKeepsTheReferencesIsAdmittedAsIs() {
        String object = owned(true);

        assertThat(refusal(rules("[update]", false), UPDATE, PATH + "/cm", object, object))
                .isEmpty();
    }

    @Test
    void anUpdateThatAddsAReferenceNeedsDeleteOnTheObject() {
        String before = Serialization.asJson(configMap());

        assertThat(refusal(rules("[update]", true), UPDATE, PATH + "/cm", owned(true), before))
                .hasValue("cannot set an ownerRef on a resource you can't delete");
        assertThat(
                        refusal(
                                rules("[update, delete]", true),
                                UPDATE,
                                PATH + "/cm",
                                owned(true),
                                before))
                .isEmpty();
    }

    private static Optional<String> refusal(
            ManifestAuthorizer rules, ApiCall call, String path, String body, String stored) {
        RecordedRequest request =
                new RecordedRequest(
                        "HTTP/1.1",
                        call.verb().equals("create") ? HttpMethod.POST : HttpMethod.PUT,
                        path,
                        Headers.builder().build(),
                        new Buffer(body.getBytes(StandardCharsets.UTF_8)));
        OptimisticMockServer.Served server =
                new OptimisticMockServer.Served() {
                    @Override
                    public MockResponse serve(RecordedRequest r) {
                        throw new AssertionError("the admission serves nothing");
                    }

                    @Override
                    public String stored(String at) {
                        return stored;
                    }
                };
        return new OwnerReferencesAdmission(rules, checked -> {}).refusal(request, call, server);
    }

    private static ManifestAuthorizer rules(String configMapVerbs, boolean finalizers) {
        String yaml =
                """
                - apiVersion: rbac.authorization.k8s.io/v1
                  kind: ClusterRole
                  metadata: {name: op}
                  rules:
                  - {apiGroups: [""], resources: [configmaps], verbs: %s}
                  - {apiGroups: [flowscale.dev], resources: [%s], verbs: [update]}
                - apiVersion: rbac.authorization.k8s.io/v1
                  kind: ClusterRoleBinding
                  metadata: {name: op}
                  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
                  subjects: [{kind: ServiceAccount, name: op, namespace: sys}]
                """
                        .formatted(
                                configMapVerbs,
                                finalizers ? "streamjobs/finalizers" : "streamjobs/status");
        List<?> items = Serialization.unmarshal(yaml, List.class);
        List<HasMetadata> manifest =
                items.stream()
                        .map(
                                i ->
                                        Serialization.unmarshal(
                                                Serialization.asJson(i), HasMetadata.class))
                        .toList();
        return new ManifestAuthorizer(manifest, "sys", "op");
    }

    private static String owned(boolean blocking) {
        return Serialization.asJson(
                new ConfigMapBuilder(configMap())
                        .editMetadata()
                        .addNewOwnerReference()
                        .withApiVersion("flowscale.dev/v1alpha1")
                        .withKind("StreamJob")
                        .withName("wc")
                        .withUid("uid-1")
                        .withController(true)
                        .withBlockOwnerDeletion(blocking)
                        .endOwnerReference()
                        .endMetadata()
                        .build());
    }

    private static io.fabric8.kubernetes.api.model.ConfigMap configMap() {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName("cm")
                .withNamespace("jobs")
                .endMetadata()
                .build();
    }
}
