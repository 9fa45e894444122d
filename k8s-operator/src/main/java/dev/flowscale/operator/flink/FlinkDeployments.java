package dev.flowscale.operator.flink;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The FlinkDeployments (flink.apache.org/v1beta1) of the Apache Flink Kubernetes operator that
 * StreamJobs target: read with get (no informer: a StreamJob rechecks its deployment every pass),
 * and written only as {@code pipeline.jobvertex-parallelism-overrides} in {@code
 * spec.flinkConfiguration}, which that operator applies. The write is a replace naming the read
 * resourceVersion, so a concurrent change (that operator's own writes, a user's edit) makes it fail
 * with 409 Conflict instead of being overwritten; it is then read, checked and written again.
 */
public final class FlinkDeployments {
    public static final ResourceDefinitionContext FLINK_DEPLOYMENT =
            new ResourceDefinitionContext.Builder()
                    .withGroup("flink.apache.org")
                    .withVersion("v1beta1")
                    .withKind("FlinkDeployment")
                    .withPlural("flinkdeployments")
                    .withNamespaced(true)
                    .build();
    static final String OVERRIDES = "pipeline.jobvertex-parallelism-overrides";

    /** The autoscaler switch; the second is its name before Flink Kubernetes operator 1.8. */
    static final List<String> AUTOSCALER_SWITCHES =
            List.of("job.autoscaler.enabled", "kubernetes.operator.job.autoscaler.enabled");

    static final int ATTEMPTS = 5;
    private static final int DEFAULT_REST_PORT = 8081;
    private final KubernetesClient client;

    /** What became of a write. */
    public enum Outcome {
        WRITTEN,
        UNCHANGED,
        MISSING,
        AUTOSCALER_ENABLED
    }

    public FlinkDeployments(KubernetesClient client) {
        this.client = client;
    }

    public Optional<GenericKubernetesResource> get(String namespace, String name) {
        return Optional.ofNullable(
                client.genericKubernetesResources(FLINK_DEPLOYMENT)
                        .inNamespace(namespace)
                        .withName(name)
                        .get());
    }

    /**
     * Writes the parallelism of every vertex as the deployment's overrides, unless it is gone or
     * its own autoscaler is on; a 409 Conflict is retried on the newest version.
     */
    public Outcome writeOverrides(String namespace, String name, Map<String, Integer> byVertexId) {
        String overrides = overrides(byVertexId);
        for (int attempt = 1; ; attempt++) {
            Optional<GenericKubernetesResource> read = get(namespace, name);
            if (read.isEmpty()) {
                return Outcome.MISSING;
            }
            if (autoscalerEnabled(read.get())) {
                return Outcome.AUTOSCALER_ENABLED;
            }
            if (overrides.equals(flinkConfiguration(read.get()).get(OVERRIDES))) {
                return Outcome.UNCHANGED;
            }
            try {
                replace(namespace, read.get(), overrides);
                return Outcome.WRITTEN;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void replace(String namespace, GenericKubernetesResource read, String overrides) {
        Map<String, Object> spec =
                (Map<String, Object>)
                        read.getAdditionalProperties()
                                .computeIfAbsent("spec", k -> new LinkedHashMap<>());
        Map<String, Object> config =
                (Map<String, Object>)
                        spec.computeIfAbsent("flinkConfiguration", k -> new LinkedHashMap<>());
        config.put(OVERRIDES, overrides);
        // update() sends the read metadata.resourceVersion: the API server refuses a stale one.
        client.genericKubernetesResources(FLINK_DEPLOYMENT)
                .inNamespace(namespace)
                .resource(read)
                .update();
    }

    /** Flink's override syntax: {@code vertexId:parallelism} pairs joined by commas. */
    static String overrides(Map<String, Integer> byVertexId) {
        return byVertexId.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(","));
    }

    static boolean autoscalerEnabled(GenericKubernetesResource deployment) {
        Map<String, String> config = flinkConfiguration(deployment);
        return AUTOSCALER_SWITCHES.stream().anyMatch(k -> "true".equalsIgnoreCase(config.get(k)));
    }

    /** The deployment's job state as that operator reports it (e.g. RUNNING), if any. */
    static Optional<String> jobState(GenericKubernetesResource deployment) {
        return Optional.ofNullable(
                        nested(deployment.getAdditionalProperties().get("status"), "jobStatus"))
                .map(s -> s.get("state"))
                .map(Object::toString);
    }

    /** spec.taskManager.replicas where set: a fixed number of TaskManagers. */
    static Optional<Integer> taskManagerReplicas(GenericKubernetesResource deployment) {
        Map<String, Object> spec = nested(deployment.getAdditionalProperties().get("spec"), null);
        Object replicas =
                Optional.ofNullable(nested(spec, "taskManager"))
                        .map(tm -> tm.get("replicas"))
                        .orElse(null);
        return replicas instanceof Number n ? Optional.of(n.intValue()) : Optional.empty();
    }

    /**
     * The REST service the Flink Kubernetes operator creates for a deployment: {@code
     * <name>-rest.<namespace>}, at {@code rest.port} (8081 unless configured).
     */
    static URI restUrl(GenericKubernetesResource deployment) {
        String port = flinkConfiguration(deployment).get("rest.port");
        return URI.create(
                "http://"
                        + deployment.getMetadata().getName()
                        + "-rest."
                        + deployment.getMetadata().getNamespace()
                        + ":"
                        + (port == null ? DEFAULT_REST_PORT : Integer.parseInt(port.trim())));
    }

    /**
     * spec.flinkConfiguration with its keys flattened: that operator accepts both flat keys ({@code
     * job.autoscaler.enabled: "true"}) and, since 1.13 (FLINK-37406), nested YAML ({@code job:
     * {autoscaler: ...}}).
     */
    public static Map<String, String> flinkConfiguration(GenericKubernetesResource deployment) {
        Map<String, String> flat = new LinkedHashMap<>();
        Map<String, Object> spec = nested(deployment.getAdditionalProperties().get("spec"), null);
        flatten("", spec == null ? null : spec.get("flinkConfiguration"), flat);
        return flat;
    }

    private static void flatten(String prefix, Object value, Map<String, String> into) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? k + "" : prefix + "." + k, v, into));
        } else if (value != null) {
            into.put(prefix, value.toString());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> nested(Object map, String key) {
        if (!(map instanceof Map<?, ?> m)) {
            return null;
        }
        Object value = key == null ? m : m.get(key);
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : null;
    }
}
