package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.testsupport.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's process as its pod runs it: a start-up failure ends the process with a non-zero
 * exit code, so that the kubelet restarts the pod and shows the failure, instead of a JVM kept up
 * by the operator's HTTP server with nothing reconciling.
 */
class OperatorStartFailureIT {
    @Test
    void anOperatorThatCannotReachTheApiServerExitsNonZero(@TempDir Path dir) throws Exception {
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
        // No server listens on a free port: every request is refused.
        env.put("KUBERNETES_MASTER", "https://127.0.0.1:" + Ports.free());
        env.put("KUBECONFIG", dir.resolve("no-kubeconfig").toString());
        env.put("KUBERNETES_REQUEST_RETRY_BACKOFFLIMIT", "1");
        env.put("FLOWSCALE_OPERATOR_PORT", "0");
        Process operator = builder.start();
        try {
            boolean exited = operator.waitFor(3, TimeUnit.MINUTES);
            assertThat(exited).as("the operator exited; its output:%n%s", read(log)).isTrue();
            assertThat(operator.exitValue()).isNotZero();
            assertThat(read(log)).contains("flowscale operator: cannot start");
        } finally {
            operator.destroyForcibly();
        }
    }

    private static String read(Path log) throws Exception {
        return Files.exists(log) ? Files.readString(log) : "";
    }
}
