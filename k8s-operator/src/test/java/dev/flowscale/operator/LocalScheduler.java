package dev.flowscale.operator;

import dev.flowscale.operator.runner.PodResize;
import dev.flowscale.operator.runner.RunnerDeployment;
import dev.flowscale.operator.runner.RunnerProblemsTest;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
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
 * deleted first, and the new one created only once no old pod is left, as the Recreate strategy
 * does; a terminating pod of the current template replaced at once, as a ReplicaSet does) with the
 * template's labels, annotations and spec, on a node ({@link #loseNode} loses it), and the status
 * the scheduler writes: scheduled when the runner container's CPU request fits the CPU a node has
 * free, else Pending with PodScheduled False, reason Unschedulable and the scheduler's message
 * ({@link RunnerProblemsTest#UNSCHEDULABLE}, as a real API server returns it). A scheduled pod
 * reports its container's resources in its status, and is resized in place as a Kubernetes 1.33+
 * kubelet resizes it ({@link #resize}).
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

    /** The annotation that names the template a pod was created from (a ReplicaSet's hash). */
    static final String TEMPLATE = "test.flowscale.dev/template";

    private final java.util.Set<String> lostNodes = new java.util.HashSet<>();
    private String node = "node-1";
    private int created;

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
            String current = Serialization.asJson(d.getSpec().getTemplate());
            if (!current.equals(template)) {
                template = current;
                pods(d).stream()
                        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                        .forEach(p -> client.resource(p).delete());
            }
            if (d.getSpec().getReplicas() > 0 && noneRuns(d)) {
                client.resource(pod(d.getSpec().getTemplate())).create();
            }
            resize();
        } catch (RuntimeException e) {
            System.err.println("local scheduler: " + e);
        }
    }

    /**
     * Whether the Deployment needs a new pod: none of its template runs or is starting (the
     * ReplicaSet controller does not count a terminating pod), and no pod of an older template is
     * left (the Recreate strategy waits for every old pod that is not Succeeded or Failed: {@code
     * oldPodsRunning} in the Deployment controller's recreate.go, terminating ones included).
     */
    private boolean noneRuns(Deployment d) {
        List<Pod> pods =
                pods(d).stream()
                        .filter(p -> p.getMetadata().getAnnotations().containsKey(TEMPLATE))
                        .toList();
        boolean oldLeft = pods.stream().anyMatch(p -> !ofTemplate(p));
        boolean current =
                pods.stream()
                        .anyMatch(
                                p ->
                                        ofTemplate(p)
                                                && p.getMetadata().getDeletionTimestamp() == null);
        return !oldLeft && !current;
    }

    private boolean ofTemplate(Pod p) {
        return String.valueOf(template.hashCode())
                .equals(p.getMetadata().getAnnotations().get(TEMPLATE));
    }

    private List<Pod> pods(Deployment d) {
        return client.pods()
                .inNamespace(namespace)
                .withLabels(d.getSpec().getSelector().getMatchLabels())
                .list()
                .getItems();
    }

    /**
     * The node the runner's pod ran on is lost: the node lifecycle controller marks its pods not
     * ready (MarkPodsNotReady), and new pods go to another node. Returns the lost node's name.
     */
    synchronized String loseNode() {
        String lost = node;
        lostNodes.add(lost);
        node = "node-" + (lostNodes.size() + 1);
        for (Pod p : client.pods().inNamespace(namespace).list().getItems()) {
            if (lost.equals(p.getSpec().getNodeName())) {
                List<PodCondition> conditions = new ArrayList<>(p.getStatus().getConditions());
                conditions.add(condition("Ready", "NodeNotReady", "Node is not ready", "False"));
                p.getStatus().setConditions(conditions);
                client.pods().inNamespace(namespace).resource(p).updateStatus();
            }
        }
        return lost;
    }

    /**
     * The taint-based eviction of the pods on lost nodes, once their toleration of
     * node.kubernetes.io/unreachable ran out (300 s by default): condition DisruptionTarget, reason
     * DeletionByTaintManager, then a delete with the pod's grace period.
     */
    synchronized void evictFromLostNodes() {
        for (Pod p : client.pods().inNamespace(namespace).list().getItems()) {
            if (lostNodes.contains(p.getSpec().getNodeName())) {
                List<PodCondition> conditions = new ArrayList<>(p.getStatus().getConditions());
                conditions.add(
                        condition(
                                "DisruptionTarget",
                                "DeletionByTaintManager",
                                "Taint manager: deleting due to NoExecute taint",
                                "True"));
                p.getStatus().setConditions(conditions);
                client.resource(client.pods().inNamespace(namespace).resource(p).updateStatus())
                        .delete();
            }
        }
    }

    /**
     * The pod whose containers a kubelet runs: the newest scheduled pod that is not terminating, on
     * a node that is not lost.
     */
    synchronized java.util.Optional<Pod> runningPod() {
        return client.pods().inNamespace(namespace).list().getItems().stream()
                .filter(p -> p.getMetadata().getAnnotations().containsKey(TEMPLATE))
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .filter(p -> !lostNodes.contains(p.getSpec().getNodeName()))
                .max(java.util.Comparator.comparing(p -> p.getMetadata().getName()));
    }

    private Pod pod(PodTemplateSpec t) {
        Quantity cpu = t.getSpec().getContainers().get(0).getResources().getRequests().get("cpu");
        boolean fits = Quantity.getAmountInBytes(cpu).compareTo(freeCpu) <= 0;
        Pod pod =
                Serialization.unmarshal(
                        fits ? SCHEDULED : RunnerProblemsTest.UNSCHEDULABLE, Pod.class);
        podName = String.format("%s-%08x-%d", deployment, template.hashCode(), ++created);
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
        pod.getMetadata().setAnnotations(new java.util.HashMap<>(t.getMetadata().getAnnotations()));
        pod.getMetadata().getAnnotations().put(TEMPLATE, String.valueOf(template.hashCode()));
        pod.setSpec(new PodSpecBuilder(t.getSpec()).withNodeName(fits ? node : null).build());
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
        return condition(type, reason, message, "True");
    }

    private static PodCondition condition(
            String type, String reason, String message, String status) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
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
