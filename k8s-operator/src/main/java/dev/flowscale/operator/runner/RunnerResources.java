package dev.flowscale.operator.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Names, labels and the desired ConfigMap and Service of a StreamJob's runner. Every resource is
 * owned by the StreamJob (controller owner reference), so deleting it deletes them.
 */
public final class RunnerResources {
    /** The runner's metrics and control API port (the engine's --metrics-port). */
    public static final int API_PORT = 9249;

    static final String CONFIG_FILE = "job.json";
    static final String AUTOSCALER_FILE = "autoscaler.json";

    /**
     * The runner reads its control API token from this variable and requires {@code Authorization:
     * Bearer <token>}.
     */
    public static final String TOKEN_ENV = "FLOWSCALE_RUNNER_TOKEN";

    public static final String TOKEN_KEY = "token";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ObjectMapper JSON =
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private RunnerResources() {}

    /**
     * The runner's Deployment and Service (a DNS-1035 label of at most 63 characters: {@link
     * RunnerNames}).
     */
    public static String runnerName(StreamJob job) {
        return RunnerNames.resourceName(job.getMetadata().getName(), "-runner");
    }

    /** The per-job Secret holding the runner's control API token. */
    static String tokenName(StreamJob job) {
        return RunnerNames.resourceName(job.getMetadata().getName(), "-token");
    }

    static String configName(StreamJob job) {
        return RunnerNames.resourceName(job.getMetadata().getName(), "-config");
    }

    static Map<String, String> selector(StreamJob job) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/name", "flowscale-runner");
        labels.put(
                "app.kubernetes.io/instance", RunnerNames.labelValue(job.getMetadata().getName()));
        return labels;
    }

    static Map<String, String> labels(StreamJob job) {
        Map<String, String> labels = selector(job);
        labels.put("app.kubernetes.io/managed-by", "flowscale-operator");
        return labels;
    }

    static ObjectMeta metadata(StreamJob job, String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels(job))
                .withOwnerReferences(ownerReference(job))
                .build();
    }

    static OwnerReference ownerReference(StreamJob job) {
        return new OwnerReferenceBuilder()
                .withApiVersion(job.getApiVersion())
                .withKind(job.getKind())
                .withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** The job's configuration as the runner runs it, and the autoscaler settings apart. */
    public static ConfigMap configMap(StreamJob job, Map<String, Integer> parallelism) {
        Map<String, Object> runner = new LinkedHashMap<>();
        runner.put("image", job.getSpec().image);
        runner.put("job", job.getSpec().job);
        runner.put("parallelism", parallelism);
        runner.put("resources", job.getSpec().resources);
        runner.put("savepoints", job.getSpec().savepoints);
        return new ConfigMapBuilder()
                .withMetadata(metadata(job, configName(job)))
                .addToData(CONFIG_FILE, json(job, runner))
                .addToData(AUTOSCALER_FILE, json(job, job.getSpec().autoscaler))
                .build();
    }

    public static Service service(StreamJob job) {
        return new ServiceBuilder()
                .withMetadata(metadata(job, runnerName(job)))
                // Only a ready runner is an endpoint: a pod on a lost node or a stopped runner
                // would time out or answer for a job that does not run. The operator reaches a
                // runner that is not ready at its pod's address (RunnerPodAddress).
                .withNewSpec()
                .withSelector(selector(job))
                .withPublishNotReadyAddresses(false)
                .addNewPort()
                .withName("http")
                .withPort(API_PORT)
                .withNewTargetPort("http")
                .endPort()
                .endSpec()
                .build();
    }

    /**
     * The job's token Secret with a new random token (32 bytes, base64url). Written only when it
     * does not exist ({@link RunnerCluster#apply} never replaces a Secret), so a job keeps its
     * token.
     */
    public static Secret tokenSecret(StreamJob job) {
        byte[] token = new byte[32];
        RANDOM.nextBytes(token);
        return new SecretBuilder()
                .withMetadata(metadata(job, tokenName(job)))
                .withType("Opaque")
                .addToData(
                        TOKEN_KEY,
                        Base64.getEncoder()
                                .encodeToString(
                                        Base64.getUrlEncoder()
                                                .withoutPadding()
                                                .encodeToString(token)
                                                .getBytes(StandardCharsets.US_ASCII)))
                .build();
    }

    private static String json(StreamJob job, Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new OperatorException(
                    "StreamJob "
                            + job.getMetadata().getName()
                            + ": cannot write its configuration as JSON: "
                            + e.getMessage(),
                    e);
        }
    }
}
