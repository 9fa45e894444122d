package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiCallTest {
    @Test
    void requestsMapToTheGroupResourceAndVerbRbacChecks() {
        assertThat(
                        call(
                                "GET",
                                "/apis/flowscale.dev/v1alpha1/streamjobs?watch=true&resourceVersion=3"))
                .isEqualTo("flowscale.dev/streamjobs watch");
        assertThat(call("GET", "/apis/flowscale.dev/v1alpha1/namespaces/jobs/streamjobs"))
                .isEqualTo("flowscale.dev/streamjobs list");
        assertThat(call("PUT", "/apis/flowscale.dev/v1alpha1/namespaces/jobs/streamjobs/wc/status"))
                .isEqualTo("flowscale.dev/streamjobs/status update");
        assertThat(call("GET", "/api/v1/namespaces/jobs/persistentvolumeclaims/savepoints"))
                .isEqualTo("core/persistentvolumeclaims get");
        assertThat(call("POST", "/api/v1/namespaces/jobs/events")).isEqualTo("core/events create");
        assertThat(call("PATCH", "/apis/apps/v1/namespaces/jobs/deployments/wc-runner"))
                .isEqualTo("apps/deployments patch");
        assertThat(call("DELETE", "/api/v1/namespaces/jobs/configmaps"))
                .isEqualTo("core/configmaps deletecollection");
        assertThat(call("GET", "/api/v1/namespaces")).isEqualTo("core/namespaces list");
        assertThat(call("GET", "/api/v1/namespaces/jobs")).isEqualTo("core/namespaces get");
        assertThat(ApiCall.of("GET", "/version")).isEmpty();
    }

    @Test
    void aRequestsNamespaceIsThePathSegmentAfterNamespacesAndNullForClusterScopedCalls() {
        assertThat(
                        ApiCall.namespace(
                                "/apis/coordination.k8s.io/v1/namespaces/flowscale-system/leases/l"))
                .isEqualTo("flowscale-system");
        assertThat(ApiCall.namespace("/api/v1/namespaces/jobs/events")).isEqualTo("jobs");
        assertThat(ApiCall.namespace("/apis/flowscale.dev/v1alpha1/streamjobs?watch=true"))
                .isNull();
        assertThat(ApiCall.namespace("/api/v1/namespaces/jobs")).isNull();
    }

    private static String call(String method, String path) {
        return ApiCall.of(method, path).orElseThrow().toString();
    }
}
