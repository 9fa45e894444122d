package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.math.BigDecimal;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Plays the ReplicaSet controller and the scheduler for one runner Deployment on the mock API
 * server, which has neither: keeps one pod for the Deployment's current pod template (the old
 * pod deleted first, as the Recreate strategy does) with the template's labels, annotations and
 * spec, and the status the scheduler writes: scheduled when the runner container's CPU request
 * fits the CPU a node has free, else Pending with PodScheduled False, reason Unschedulable and the
 * scheduler's message ({@link RunnerProblemsTest#UNSCHEDULABLE}, as a real API server returns it).
 */
final class LocalScheduler implements AutoCloseable {
    /** A scheduled pod as the API server shows it once the kubelet started it. */
    static final String SCHEDULED = """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wc-runner-0", "namespace": "jobs"},
             "status": {"phase": "Running", "qosClass": "Burstable",
               "conditions": [{"type": "PodScheduled", "status": "True"}]}}
            """;
    private final KubernetesClient client;
    private final String namespace;
    private final String deployment;
    private final BigDecimal freeCpu;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private String template;

    LocalScheduler(KubernetesClient client, String namespace, String deployment, Quantity freeCpu) {
        this.client = client;
        this.namespace = namespace;
        this.deployment = deployment;
        this.freeCpu = Quantity.getAmountInBytes(freeCpu);
        loop.scheduleWithFixedDelay(this::sync, 0, 100, TimeUnit.MILLISECONDS);
    }

    private synchronized void sync() {
        try {
            Deployment d = client.apps().deployments().inNamespace(namespace).withName(deployment).get();
            if (d == null || Serialization.asJson(d.getSpec().getTemplate()).equals(template)) {
                return;
            }
            template = Serialization.asJson(d.getSpec().getTemplate());
            client.pods().inNamespace(namespace).withLabels(d.getSpec().getSelector().getMatchLabels()).delete();
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
        Pod pod = Serialization.unmarshal(fits ? SCHEDULED : RunnerProblemsTest.UNSCHEDULABLE, Pod.class);
        pod.getMetadata().setName(deployment + "-" + Integer.toHexString(template.hashCode()));
        pod.getMetadata().setNamespace(namespace);
        pod.getMetadata().setLabels(t.getMetadata().getLabels());
        pod.getMetadata().setAnnotations(t.getMetadata().getAnnotations());
        pod.setSpec(t.getSpec());
        return pod;
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
