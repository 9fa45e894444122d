package dev.flowscale.operator;

import dev.flowscale.operator.api.JobSpec;
import dev.flowscale.operator.api.KafkaSpec;
import dev.flowscale.operator.api.SavepointStorage;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** StreamJobs for tests. */
public final class StreamJobs {
    private StreamJobs() {}

    /**
     * Edits a StreamJob's spec as a user would, again on a fresh copy when the API server answers
     * 409 Conflict: the operator writes status, which changes the resourceVersion the edit's patch
     * is checked against, on a real API server as on the mock one.
     */
    static void edit(
            KubernetesClient client, String namespace, String name, Consumer<StreamJob> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.resources(StreamJob.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .edit(
                                j -> {
                                    change.accept(j);
                                    return j;
                                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /**
     * Edits a StreamJob's status as the autoscaler's recording would, again on a fresh copy after a
     * 409.
     */
    static void editStatus(
            KubernetesClient client,
            String namespace,
            String name,
            Consumer<dev.flowscale.operator.api.StreamJobStatus> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.resources(StreamJob.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .editStatus(
                                j -> {
                                    change.accept(j.getStatus());
                                    return j;
                                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /**
     * A ReadWriteOnce claim for a job's savepoints, as {@link #wordCount}'s (named "savepoints")
     * expects.
     */
    static PersistentVolumeClaim savepointClaim(String namespace, String name) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .endSpec()
                .build();
    }

    /** wordcount with split=2, count=3, savepoints on the claim "savepoints". */
    public static StreamJob wordCount(String namespace, String name) {
        StreamJobSpec spec = new StreamJobSpec();
        spec.image = "registry.example/flowscale-runner:0.1.0";
        spec.job = new JobSpec();
        spec.job.builtin = "wordcount";
        spec.job.args = List.of("--rate", "1000");
        spec.parallelism.putAll(Map.of("split", 2, "count", 3));
        spec.resources.cpu = "500m";
        spec.resources.memory = "256Mi";
        spec.savepoints = new SavepointStorage();
        spec.savepoints.claimName = "savepoints";
        StreamJob job = new StreamJob();
        job.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        job.setSpec(spec);
        return job;
    }

    /**
     * kafka-wordcount reading "sentences" at broker:9092, with client settings from the Secret
     * "kafka-client" (keys security.protocol and sasl.jaas.config).
     */
    static StreamJob kafkaWordCount(String namespace, String name) {
        StreamJob job = wordCount(namespace, name);
        StreamJobSpec spec = job.getSpec();
        spec.job.builtin = "kafka-wordcount";
        spec.job.args = List.of();
        spec.parallelism.clear();
        spec.kafka = new KafkaSpec();
        spec.kafka.bootstrapServers = "broker:9092";
        spec.kafka.topic = "sentences";
        spec.kafka.outputTopic = "counts";
        spec.kafka.groupId = "wordcount";
        spec.kafka.clientSecret = new KafkaSpec.ClientSecret();
        spec.kafka.clientSecret.name = "kafka-client";
        spec.kafka.clientSecret.keys = List.of("security.protocol", "sasl.jaas.config");
        return job;
    }
}
