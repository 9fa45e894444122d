package dev.flowscale.operator.loop;

import dev.flowscale.autoscaler.state.HistoryCodec;
import dev.flowscale.autoscaler.state.HistoryStore;
import dev.flowscale.autoscaler.state.StateException;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.ScalingHistory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * A StreamJob's autoscaler memory in a ConfigMap of its own, {@code <job>-autoscaler}, as the Flink
 * Kubernetes operator keeps its autoscaler's state: the history gzipped under {@value #KEY}, at
 * most {@value #MAX_BYTES} bytes ({@link HistoryCodec} drops the oldest decisions, then the oldest
 * rate buckets, to fit; base64 makes it a third larger, still far under the API server's 1 MiB
 * object limit). Owned by the StreamJob, so deleting the job deletes it; its owner reference does
 * not block the owner's deletion, which would need update on streamjobs/finalizers. Read once when
 * a loop starts (get), written after each decision (create, then update against the version last
 * read or written). Only the leader's loops write it; a conflict means a former leader wrote in
 * between, and the leader's newer history replaces it.
 */
final class ConfigMapHistoryStore implements HistoryStore {
    static final String KEY = "history.json.gz";
    static final int MAX_BYTES = 512 * 1024;
    static final String SUFFIX = "-autoscaler";
    private static final int MAX_NAME = 253;
    private final KubernetesClient client;
    private final StreamJob job;
    private final HistoryCodec codec = new HistoryCodec(MAX_BYTES);
    private String resourceVersion;

    ConfigMapHistoryStore(KubernetesClient client, StreamJob job) {
        this.client = client;
        this.job = job;
    }

    /** {@code <job>-autoscaler}, or one named by the job's uid when that is too long. */
    static String name(StreamJob job) {
        String plain = job.getMetadata().getName() + SUFFIX;
        return plain.length() <= MAX_NAME
                ? plain
                : "flowscale" + SUFFIX + "-" + job.getMetadata().getUid();
    }

    @Override
    public Optional<ScalingHistory> load() {
        ConfigMap stored = resource().get();
        if (stored == null) {
            return Optional.empty();
        }
        resourceVersion = stored.getMetadata().getResourceVersion();
        String data = stored.getBinaryData() == null ? null : stored.getBinaryData().get(KEY);
        if (data == null || !ownedByThisJob(stored)) {
            return Optional.empty(); // left by a deleted job of the same name: started afresh
        }
        try {
            return Optional.of(codec.decode(Base64.getDecoder().decode(data)));
        } catch (IllegalArgumentException e) {
            throw new StateException(
                    "ConfigMap " + where() + " key " + KEY + " is not base64: " + e.getMessage());
        }
    }

    @Override
    public void save(ScalingHistory history) {
        ConfigMap desired = desired(codec.encode(history));
        try {
            write(desired);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            ConfigMap latest = resource().get(); // a former leader wrote in between
            resourceVersion = latest == null ? null : latest.getMetadata().getResourceVersion();
            write(desired);
        }
    }

    private void write(ConfigMap desired) {
        desired.getMetadata().setResourceVersion(resourceVersion);
        ConfigMap written =
                resourceVersion == null
                        ? client.resource(desired).create()
                        : client.resource(desired).update();
        resourceVersion = written.getMetadata().getResourceVersion();
    }

    private ConfigMap desired(byte[] history) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name(job))
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(
                        Map.of(
                                "app.kubernetes.io/name", "flowscale-autoscaler-state",
                                "app.kubernetes.io/part-of", "flowscale"))
                .withOwnerReferences(owner())
                .endMetadata()
                .withBinaryData(Map.of(KEY, Base64.getEncoder().encodeToString(history)))
                .build();
    }

    private OwnerReference owner() {
        return new OwnerReferenceBuilder()
                .withApiVersion(job.getApiVersion())
                .withKind(job.getKind())
                .withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid())
                .withController(false)
                .withBlockOwnerDeletion(false)
                .build();
    }

    private boolean ownedByThisJob(ConfigMap stored) {
        return stored.getMetadata().getOwnerReferences().stream()
                .anyMatch(o -> job.getMetadata().getUid().equals(o.getUid()));
    }

    private Resource<ConfigMap> resource() {
        return client.configMaps()
                .inNamespace(job.getMetadata().getNamespace())
                .withName(name(job));
    }

    private String where() {
        return job.getMetadata().getNamespace() + "/" + name(job);
    }
}
