package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * A Flink session cluster of the official image on K3s, as Flink's docs deploy one in standalone
 * mode: a JobManager Deployment behind the Service {@value #JOBMANAGER} (RPC 6123, blob 6124, REST
 * 8081) with the adaptive scheduler, and a TaskManager Deployment of one slot per pod, so the test
 * decides when a rescale can get its slots (by scaling {@value #TASKMANAGER}).
 */
final class K3sFlinkSession {
    /** The official image (Docker Hub's {@code flink}, tag {@code <version>-java<jdk>}). */
    static final String IMAGE = "flink:2.3.0-java17";

    static final String JOBMANAGER = "flink-jobmanager";
    static final String TASKMANAGER = "flink-taskmanager";

    /** An unbounded example job with keyed state that the image carries. */
    static final String EXAMPLE = "/opt/flink/examples/streaming/StateMachineExample.jar";

    private K3sFlinkSession() {}

    /** Creates the JobManager, its Service and {@code taskManagers} TaskManagers in {@code ns}. */
    static void create(KubernetesClient client, String ns, int taskManagers) {
        client.resource(deployment(ns, JOBMANAGER, "jobmanager", 1)).create();
        client.resource(
                        new ServiceBuilder()
                                .withNewMetadata()
                                .withName(JOBMANAGER)
                                .withNamespace(ns)
                                .endMetadata()
                                .withNewSpec()
                                .withSelector(Map.of("app", JOBMANAGER))
                                .addNewPort()
                                .withName("rpc")
                                .withPort(6123)
                                .endPort()
                                .addNewPort()
                                .withName("blob")
                                .withPort(6124)
                                .endPort()
                                .addNewPort()
                                .withName("rest")
                                .withPort(8081)
                                .withTargetPort(new IntOrString(8081))
                                .endPort()
                                .endSpec()
                                .build())
                .create();
        client.resource(deployment(ns, TASKMANAGER, "taskmanager", taskManagers)).create();
    }

    /** Scales the TaskManagers (one slot each) to {@code replicas}. */
    static void taskManagers(KubernetesClient client, String ns, int replicas) {
        client.apps().deployments().inNamespace(ns).withName(TASKMANAGER).scale(replicas);
    }

    private static Deployment deployment(String ns, String name, String role, int replicas) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .withMatchLabels(Map.of("app", name))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(Map.of("app", name))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName(role)
                .withImage(IMAGE)
                .withArgs(role)
                .withEnv(env())
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("1Gi")))
                .withLimits(Map.of("memory", new Quantity("1Gi")))
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * Flink's settings (the image appends FLINK_PROPERTIES to its configuration): every address
     * bound beyond loopback, each TaskManager reachable at its pod IP (Kubernetes expands {@code
     * $(POD_IP)}), the adaptive scheduler, checkpoints every 2 s.
     */
    private static List<EnvVar> env() {
        String properties =
                String.join(
                        "\n",
                        "jobmanager.rpc.address: " + JOBMANAGER,
                        "jobmanager.bind-host: 0.0.0.0",
                        "rest.bind-address: 0.0.0.0",
                        "taskmanager.bind-host: 0.0.0.0",
                        "taskmanager.host: $(POD_IP)",
                        "taskmanager.numberOfTaskSlots: 1",
                        "jobmanager.scheduler: adaptive",
                        "jobmanager.memory.process.size: 1000m",
                        "taskmanager.memory.process.size: 1000m",
                        "execution.checkpointing.interval: 2s");
        return List.of(
                new EnvVarBuilder()
                        .withName("POD_IP")
                        .withNewValueFrom()
                        .withNewFieldRef()
                        .withFieldPath("status.podIP")
                        .endFieldRef()
                        .endValueFrom()
                        .build(),
                new EnvVar("FLINK_PROPERTIES", properties, null));
    }
}
