package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.testsupport.Ports;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's process as its pod runs it: a start-up failure (no API server; a StreamJob CRD
 * older than the operator) ends the process with a non-zero exit code, so that the kubelet restarts
 * the pod and shows the failure, instead of a JVM kept up by the operator's HTTP server with
 * nothing reconciling.
 */
class OperatorStartFailureIT {
    @Test
    void anOperatorThatCannotReachTheApiServerExitsNonZero(@TempDir Path dir) throws Exception {
        // No server listens on a free port: every request is refused.
        Process operator = start(dir, "https://127.0.0.1:" + Ports.free());
        Path log = dir.resolve("operator.log");
        try {
            boolean exited = operator.waitFor(3, TimeUnit.MINUTES);
            assertThat(exited).as("the operator exited; its output:%n%s", read(log)).isTrue();
            assertThat(operator.exitValue()).isNotZero();
            assertThat(read(log)).contains("flowscale operator: cannot start");
        } finally {
            operator.destroyForcibly();
        }
    }

    @Test
    void anOperatorFacingACrdWithoutItsStatusFieldsExitsNonZeroNamingBothRevisionsAndTheFix(
            @TempDir Path dir) throws Exception {
        CustomResourceDefinition old;
        try (InputStream in = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            old = Serialization.unmarshal(in, CustomResourceDefinition.class);
        }
        old.getSpec()
                .getVersions()
                .get(0)
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("status")
                .getProperties()
                .remove("lastDecision");
        try (OptimisticMockServer server = new OptimisticMockServer();
                KubernetesClient client = server.client()) {
            client.resource(old).create();
            Process operator = start(dir, client.getConfiguration().getMasterUrl());
            Path log = dir.resolve("operator.log");
            try {
                boolean exited = operator.waitFor(3, TimeUnit.MINUTES);
                assertThat(exited).as("the operator exited; its output:%n%s", read(log)).isTrue();
                assertThat(operator.exitValue()).isNotZero();
                assertThat(read(log).lines().filter(l -> l.contains("older than this operator")))
                        .as("the log lines naming the outdated CRD in:%n%s", read(log))
                        .anySatisfy(
                                line ->
                                        assertThat(line)
                                                .contains("found v1alpha1 schema")
                                                .contains("needs v1alpha1 schema")
                                                .contains("status.lastDecision")
                                                .contains("kubectl apply --server-side -f"));
            } finally {
                operator.destroyForcibly();
            }
        }
    }

    /** The operator's main in a process of its own against the API server at {@code master}. */
    private static Process start(Path dir, String master) throws Exception {
        Path log = dir.resolve("operator.log");
        ProcessBuilder builder =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                FlowscaleOperator.class.getName())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("KUBERNETES_") || k.equals("KUBECONFIG"));
        env.put("KUBERNETES_MASTER", master);
        env.put("KUBECONFIG", dir.resolve("no-kubeconfig").toString());
        env.put("KUBERNETES_REQUEST_RETRY_BACKOFFLIMIT", "1");
        env.put("FLOWSCALE_OPERATOR_PORT", "0");
        return builder.start();
    }

    private static String read(Path log) throws Exception {
        return Files.exists(log) ? Files.readString(log) : "";
    }
}
