package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.flowscale.operator.flink.FlinkDeployments;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The FlinkDeployment CRD as the Apache Flink Kubernetes operator release that matches
 * flink-autoscaler (1.10.0) ships it: read at test time from that release's {@code
 * flink-kubernetes-operator-api} jar (its CRD generator's output, the same file its Helm chart
 * installs), registered on a mock API server that then prunes and validates FlinkDeployments
 * against its v1beta1 schema as a real API server would.
 */
public final class FlinkOperatorCrd {
    static final String RESOURCE = "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";
    static final String VERSION = "v1beta1";

    /** Read and parsed once per test JVM: the file is half a megabyte. */
    private static CustomResourceDefinition crd;

    private static StructuralSchema schema;

    private FlinkOperatorCrd() {}

    /** Creates the CRD on {@code server} and makes the server enforce its schema. */
    public static void install(OptimisticMockServer server, KubernetesClient client) {
        client.resource(crd()).create();
        server.enforceSchema(
                FlinkDeployments.FLINK_DEPLOYMENT.getGroup(),
                VERSION,
                FlinkDeployments.FLINK_DEPLOYMENT.getPlural(),
                schema());
    }

    private static synchronized CustomResourceDefinition crd() {
        if (crd == null) {
            crd = Serialization.unmarshal(text(), CustomResourceDefinition.class);
        }
        return crd;
    }

    /** The openAPIV3Schema of the CRD's v1beta1 version. */
    static synchronized StructuralSchema schema() {
        if (schema == null) {
            schema = parse();
        }
        return schema;
    }

    private static StructuralSchema parse() {
        try {
            JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(text());
            for (JsonNode version : crd.path("spec").path("versions")) {
                if (VERSION.equals(version.path("name").asText())) {
                    return new StructuralSchema(version.path("schema").path("openAPIV3Schema"));
                }
            }
            throw new IllegalStateException(RESOURCE + " has no version " + VERSION);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text() {
        try (InputStream in =
                FlinkOperatorCrd.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        RESOURCE
                                + " is not on the test class path: k8s-operator's pom must have"
                                + " org.apache.flink:flink-kubernetes-operator-api (test scope)");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
