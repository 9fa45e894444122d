package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The pod {@link LocalKubelet} reports for a runner process that exited with an error, as the
 * kubelet reports a crash loop: state waiting CrashLoopBackOff, the restart count, and the last
 * termination's exit code, reason Error and, under terminationMessagePolicy FallbackToLogsOnError,
 * the end of the log (at most 80 lines and 2048 bytes, as the kubelet takes it). The next start
 * waits 10 s, then 20 s, 40 s... (the kubelet's back-off, capped at 5 minutes).
 */
final class RunnerPod {
    static final int MESSAGE_LINES = 80;
    static final int MESSAGE_BYTES = 2048;
    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private int failures;
    private long restartAt;

    RunnerPod(KubernetesClient client, String namespace, String deployment) {
        this.client = client;
        this.namespace = namespace;
        this.name = deployment + "-local";
    }

    /** A new pod (new arguments): no failures yet. */
    void reset() {
        failures = 0;
        restartAt = 0;
        client.pods().inNamespace(namespace).withName(name).delete();
    }

    /**
     * Called while the runner's process has exited: records a failure once (and reports it on the
     * pod), then answers whether its back-off is over. A process that exited with 0 restarts at
     * once.
     */
    boolean restartDue(Process exited, Path log, Deployment deployment) throws IOException {
        if (exited.exitValue() == 0) {
            return true;
        }
        if (restartAt == 0) {
            failures++;
            restartAt =
                    System.nanoTime()
                            + Duration.ofSeconds(10)
                                    .multipliedBy(1L << Math.min(failures - 1, 5))
                                    .toNanos();
            report(exited.exitValue(), log, deployment);
        }
        if (System.nanoTime() < restartAt) {
            return false;
        }
        restartAt = 0;
        return true;
    }

    private void report(int exitCode, Path log, Deployment deployment) throws IOException {
        var template = deployment.getSpec().getTemplate();
        var container = template.getSpec().getContainers().get(0);
        String message =
                "FallbackToLogsOnError".equals(container.getTerminationMessagePolicy())
                        ? tail(log)
                        : null;
        Pod pod =
                new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .withLabels(template.getMetadata().getLabels())
                        .withAnnotations(template.getMetadata().getAnnotations())
                        .endMetadata()
                        .withSpec(template.getSpec())
                        .withNewStatus()
                        .withPhase("Running")
                        .withContainerStatuses(
                                new ContainerStatusBuilder()
                                        .withName(container.getName())
                                        .withImage(container.getImage())
                                        .withReady(false)
                                        .withRestartCount(failures)
                                        .withNewState()
                                        .withNewWaiting()
                                        .withReason("CrashLoopBackOff")
                                        .withMessage(
                                                "back-off restarting failed container="
                                                        + container.getName())
                                        .endWaiting()
                                        .endState()
                                        .withNewLastState()
                                        .withNewTerminated()
                                        .withExitCode(exitCode)
                                        .withReason("Error")
                                        .withMessage(message)
                                        .endTerminated()
                                        .endLastState()
                                        .build())
                        .endStatus()
                        .build();
        // As the kubelet: the pod exists, then its status is written through the status
        // subresource.
        Pod stored =
                client.resource(pod)
                        .createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        stored.setStatus(pod.getStatus());
        client.resource(stored).updateStatus();
    }

    /** The end of a log as the kubelet takes it for a termination message. */
    static String tail(Path log) throws IOException {
        var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        String tail =
                String.join(
                        "\n",
                        lines.subList(Math.max(0, lines.size() - MESSAGE_LINES), lines.size()));
        byte[] bytes = tail.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= MESSAGE_BYTES
                ? tail
                : new String(
                        bytes, bytes.length - MESSAGE_BYTES, MESSAGE_BYTES, StandardCharsets.UTF_8);
    }
}
