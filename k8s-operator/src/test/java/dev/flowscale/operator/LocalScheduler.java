package dev.flowscale.operator;

import dev.flowscale.operator.runner.PodResize;
import dev.flowscale.operator.runner.RunnerDeployment;
import dev.flowscale.operator.runner.RunnerProblemsTest;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Plays the ReplicaSet controller and the scheduler for one runner Deployment on the mock API
 * server, which has neither: keeps one pod for the Deployment's current pod template (the old pod
 * deleted first, as the Recreate strategy does) with the template's labels, annotations and spec,
 * and the status the scheduler writes: scheduled when the runner container's CPU request fits the
 * CPU a node has free, else Pending with PodScheduled False, reason Unschedulable and the
 * scheduler's message ({@link RunnerProblemsTest#UNSCHEDULABLE}, as a real API server returns it).
 * A scheduled pod reports its container's resources in its status, and is resized in place as a
 * Kubernetes 1.33+ kubelet resizes it ({@link #resize}).
 */
final class LocalScheduler implements AutoCloseable {
    /** A scheduled pod as the API server shows it once the kubelet started it. */
    static final String SCHEDULED =
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-0", "namespace": "jobs"},
             "status": {"phase": "Running", "qosClass": "Burstable",
               "conditions": [{"type": "PodScheduled", "status": "True"}]}}
            """;

    private final KubernetesClient client;
    private final String namespace;
    private final String deployment;
    private final BigDecimal freeCpu;
    private final Quantity nodeCpu;
    private String podName;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private String template;

    LocalScheduler(KubernetesClient client, String namespace, String deployment, Quantity freeCpu) {
        this(client, namespace, deployment, freeCpu, freeCpu);
    }

    /**
     * @param freeCpu the most CPU a node has free for a new pod (scheduling)
     * @param nodeCpu the CPU capacity of the node the runner pod runs on (an in-place resize beyond
     *     it is Infeasible)
     */
    LocalScheduler(
            KubernetesClient client,
            String namespace,
            String deployment,
            Quantity freeCpu,
            Quantity nodeCpu) {
        this.client = client;
        this.namespace = namespace;
        this.deployment = deployment;
        this.freeCpu = Quantity.getAmountInBytes(freeCpu);
        this.nodeCpu = nodeCpu;
        loop.scheduleWithFixedDelay(this::sync, 0, 100, TimeUnit.MILLISECONDS);
    }

    private synchronized void sync() {
        try {
            Deployment d =
                    client.apps().deployments().inNamespace(namespace).withName(deployment).get();
            if (d == null) {
                return;
            }
            if (Serialization.asJson(d.getSpec().getTemplate()).equals(template)) {
                resize();
                return;
            }
            template = Serialization.asJson(d.getSpec().getTemplate());
            client.pods()
                    .inNamespace(namespace)
                    .withLabels(d.getSpec().getSelector().getMatchLabels())
                    .delete();
            if (d.getSpec().getReplicas() > 0) {
                client.resource(pod(d.getSpec().getTemplate())).create();
            }
        } catch (RuntimeException e) {
            System.err.println("local scheduler: " + e);
        }
    }

    private Pod pod(PodTemplateSpec t) {
        Quantity cpu = t.getSpec().getContainers().get(0).getResources().getRequests().get("cpu");
        boolean fits = Quantity.getAmountInBytes(cpu).compareTo(freeCpu) <= 0;
        Pod pod =
                Serialization.unmarshal(
                        fits ? SCHEDULED : RunnerProblemsTest.UNSCHEDULABLE, Pod.class);
        podName = deployment + "-" + Integer.toHexString(template.hashCode());
        pod.getMetadata().setName(podName);
        if (fits) {
            var requirements = t.getSpec().getContainers().get(0).getResources();
            pod.getStatus()
                    .setContainerStatuses(
                            java.util.List.of(
                                    new ContainerStatusBuilder()
                                            .withName(RunnerDeployment.CONTAINER)
                                            .withReady(true)
                                            .withRestartCount(0)
                                            .withImage(
                                                    t.getSpec().getContainers().get(0).getImage())
                                            .withResources(
                                                    new ResourceRequirementsBuilder(requirements)
                                                            .build())
                                            .withAllocatedResources(requirements.getRequests())
                                            .build()));
        }
        pod.getMetadata().setNamespace(namespace);
        pod.getMetadata().setLabels(t.getMetadata().getLabels());
        pod.getMetadata().setAnnotations(t.getMetadata().getAnnotations());
        pod.setSpec(t.getSpec());
        return pod;
    }

    /**
     * The kubelet's side of an in-place resize (Kubernetes 1.33+): a container whose spec asks for
     * other resources than it has gets condition PodResizeInProgress, then its actual resources
     * (status.containerStatuses[].resources) and no condition; one that asks for more CPU than the
     * node has gets PodResizePending with reason Infeasible and keeps what it has.
     */
    private void resize() {
        Pod pod =
                podName == null
                        ? null
                        : client.pods().inNamespace(namespace).withName(podName).get();
        if (pod == null
                || pod.getStatus().getContainerStatuses() == null
                || pod.getStatus().getContainerStatuses().isEmpty()) {
            return;
        }
        var wanted = pod.getSpec().getContainers().get(0).getResources();
        var actual = pod.getStatus().getContainerStatuses().get(0);
        if (PodResize.same(wanted, actual.getResources())) {
            return;
        }
        List<PodCondition> conditions = new ArrayList<>(pod.getStatus().getConditions());
        boolean inProgress = conditions.removeIf(c -> c.getType().equals(PodResize.IN_PROGRESS));
        boolean infeasible =
                Quantity.getAmountInBytes(wanted.getRequests().get("cpu"))
                                .compareTo(Quantity.getAmountInBytes(nodeCpu))
                        > 0;
        if (infeasible
                && conditions.stream().anyMatch(c -> c.getType().equals(PodResize.PENDING))) {
            return;
        } else if (infeasible) {
            conditions.add(
                    condition(
                            PodResize.PENDING,
                            "Infeasible",
                            "Node didn't have enough capacity: cpu,"
                                    + " requested: "
                                    + millis(wanted.getRequests().get("cpu"))
                                    + ", capacity: "
                                    + millis(nodeCpu)));
        } else if (inProgress) {
            actual.setResources(new ResourceRequirementsBuilder(wanted).build());
            actual.setAllocatedResources(wanted.getRequests());
        } else {
            conditions.add(condition(PodResize.IN_PROGRESS, null, null));
        }
        pod.getStatus().setConditions(conditions);
        client.pods().inNamespace(namespace).resource(pod).updateStatus();
    }

    private static PodCondition condition(String type, String reason, String message) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(java.time.Instant.now().toString())
                .build();
    }

    private static long millis(Quantity cpu) {
        return Quantity.getAmountInBytes(cpu).movePointRight(3).longValue();
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
