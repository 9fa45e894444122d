package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What {@link K3sClusterE2E} reads from and does to the pods of a real cluster. */
final class K3sPods {
    private K3sPods() {}

    static boolean ready(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static boolean exitedNonZero(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getContainerStatuses().stream()
                        .flatMap(c -> Stream.of(c.getState(), c.getLastState()))
                        .anyMatch(
                                s ->
                                        s != null
                                                && s.getTerminated() != null
                                                && s.getTerminated().getExitCode() != 0);
    }

    static Pod withFinalizers(Pod pod, List<String> finalizers) {
        pod.getMetadata().setFinalizers(new ArrayList<>(finalizers));
        return pod;
    }

    static void exec(KubernetesClient client, Pod pod, String... command) throws Exception {
        try (ExecWatch watch =
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .redirectingError()
                        .exec(command)) {
            assertThat(watch.exitCode().get(1, TimeUnit.MINUTES))
                    .as(String.join(" ", command) + " in " + pod.getMetadata().getName())
                    .isZero();
        }
    }
}
