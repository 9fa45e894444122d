package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkVertex;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.flink.FlinkDeploymentRealizer;
import dev.flowscale.operator.flink.FlinkDeployments;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A StreamJob that targets a FlinkDeployment, on the mock API server in CRUD mode (made to refuse a
 * stale update with 409 Conflict, as a real API server does) with the Flink Kubernetes operator's
 * own FlinkDeployment CRD registered and enforced ({@link FlinkOperatorCrd}: pruned and validated
 * as a real API server would). The Flink job's vertices are a value: what matters here is what
 * reaches the FlinkDeployment; flink-connector's MiniCluster tests cover the REST side.
 */
public class FlinkDeploymentTargetIT {
    public static final String NS = "flink";
    static final String SOURCE = "0a448493b4782967b150582570326227";
    static final String SPLIT = "bc764cd8ddf7a0cff126f51c16239658";
    static final String COUNT = "ea632d67b7d595e5b851708ae9ad79d6";
    private final OptimisticMockServer server = new OptimisticMockServer();
    private final KubernetesClient client = server.client();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final FlinkDeployments deployments = new FlinkDeployments(client);

    @BeforeEach
    void registerTheFlinkOperatorsCrd() {
        FlinkOperatorCrd.install(server, client);
    }

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
        client.close();
        server.close();
    }

    @Test
    void aDecisionBecomesTheParallelismOverridesOfEveryVertexOnTheFlinkDeployment()
            throws Exception {
        create(deployment("wordcount", Map.of("taskmanager.numberOfTaskSlots", "4")));
        AtomicInteger reads = new AtomicInteger();
        // Flink runs the new parallelism once the Flink operator applied the overrides.
        Supplier<FlinkJob> job = () -> reads.getAndIncrement() == 0 ? job(1, 1, 1) : job(1, 4, 6);

        realizer("wordcount", job)
                .realize(decision())
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);

        Map<String, String> config = FlinkDeployments.flinkConfiguration(read("wordcount"));
        assertThat(config)
                .containsEntry(
                        "pipeline.jobvertex-parallelism-overrides",
                        SOURCE + ":1," + SPLIT + ":4," + COUNT + ":6")
                .containsEntry("taskmanager.numberOfTaskSlots", "4");
        assertThat(server.conflicts()).isZero();
        assertThat(server.pruned()).as("fields a real API server would drop").isEmpty();
        // RbacMatchesApiCallsIT's life cycle makes no decision on a Flink job: this call is checked
        // here.
        assertThat(
                        ManifestAuthorizer.operatorManifest()
                                .allows(
                                        NS,
                                        new ApiCall(
                                                "flink.apache.org", "flinkdeployments", "update")))
                .as("the manifest grants replacing a FlinkDeployment")
                .isTrue();
    }

    @Test
    void aWriteThatMeetsAnotherWritersNewerVersionIsRetriedOnTopOfIt() {
        create(deployment("wordcount", Map.of()));
        // The Flink operator (or a user) changes the deployment between flowscale's read and write.
        server.beforeNextUpdate(
                "/flinkdeployments/wordcount",
                node -> {
                    ((ObjectNode) node.path("spec").path("flinkConfiguration"))
                            .put("execution.checkpointing.interval", "10s");
                    return node;
                });

        Map<String, Integer> target = new LinkedHashMap<>();
        target.put(SOURCE, 1);
        target.put(SPLIT, 3);
        FlinkDeployments.Outcome outcome = deployments.writeOverrides(NS, "wordcount", target);

        assertThat(outcome).isEqualTo(FlinkDeployments.Outcome.WRITTEN);
        assertThat(server.conflicts()).as("stale updates refused").isEqualTo(1);
        assertThat(FlinkDeployments.flinkConfiguration(read("wordcount")))
                .containsEntry("execution.checkpointing.interval", "10s")
                .containsEntry(
                        "pipeline.jobvertex-parallelism-overrides", SOURCE + ":1," + SPLIT + ":3");
    }

    @Test
    void nothingIsWrittenWhileTheFlinkOperatorsOwnAutoscalerIsEnabled() {
        create(deployment("flat", Map.of("job.autoscaler.enabled", "true")));
        String before = read("flat").getMetadata().getResourceVersion();

        assertThatThrownBy(
                        () ->
                                realizer("flat", () -> job(1, 1, 1))
                                        .realize(decision())
                                        .toCompletableFuture()
                                        .get())
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("has its own autoscaler on: nothing written");

        assertThat(read("flat").getMetadata().getResourceVersion()).isEqualTo(before);
        assertThat(FlinkDeployments.flinkConfiguration(read("flat")))
                .doesNotContainKey("pipeline.jobvertex-parallelism-overrides");
    }

    @Test
    void theFlinkOperatorsCrdRefusesWhatARealApiServerRefuses() {
        // 1.10's flinkConfiguration is a map of strings: nested YAML came with operator 1.13.
        assertThatThrownBy(
                        () ->
                                create(
                                        deployment(
                                                "nested",
                                                Map.of(
                                                        "job",
                                                        Map.of(
                                                                "autoscaler",
                                                                Map.of("enabled", "true"))))))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining(
                        "spec.flinkConfiguration.job in body must be of type string: \"object\"");
        // A Flink version that operator does not know.
        GenericKubernetesResource flink2 = deployment("flink2", Map.of());
        spec(flink2).put("flinkVersion", "v2_0");
        assertThatThrownBy(() -> create(flink2))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.flinkVersion: Unsupported value: \"v2_0\"");
        // A field it does not know is dropped, silently.
        GenericKubernetesResource unknown = deployment("unknown", Map.of());
        spec(unknown).put("parallelismOverrides", Map.of(SPLIT, 4));
        create(unknown);
        assertThat(server.pruned()).containsExactly("spec.parallelismOverrides");
        assertThat(spec(read("unknown"))).doesNotContainKey("parallelismOverrides");
    }

    @Test
    void theStreamJobSaysWhenItsFlinkDeploymentIsMissingOrRunsItsOwnAutoscaler() {
        create(deployment("autoscaled", Map.of("job.autoscaler.enabled", "true")));
        create(deployment("running", Map.of()));
        // As the Flink operator reports it: through the status subresource (create drops status).
        GenericKubernetesResource running = read("running");
        running.getAdditionalProperties()
                .put("status", Map.of("jobStatus", Map.of("state", "RUNNING")));
        client.genericKubernetesResources(FlinkDeployments.FLINK_DEPLOYMENT)
                .inNamespace(NS)
                .resource(running)
                .updateStatus();
        try (TestingOperator operator = TestingOperator.start(client)) {
            client.resource(target(NS, "missing-target", "missing")).create();
            client.resource(target(NS, "autoscaled-target", "autoscaled")).create();
            client.resource(target(NS, "running-target", "running")).create();

            assertDegraded(
                    "missing-target",
                    JobEvents.FLINK_DEPLOYMENT_MISSING,
                    "FlinkDeployment 'missing' (spec.flink.deployment) does not exist in namespace"
                            + " flink: create it or correct the name");
            assertDegraded(
                    "autoscaled-target",
                    JobEvents.FLINK_AUTOSCALER_ENABLED,
                    "job.autoscaler.enabled: \"true\"); two autoscalers would fight");
            StreamJob ok =
                    Eventually.await(
                            "StreamJob running-target running",
                            () -> get("running-target"),
                            j -> j.getStatus() != null && j.getStatus().phase == JobPhase.Running);
            assertThat(Conditions.find(ok.getStatus(), Conditions.READY).orElseThrow().getMessage())
                    .isEqualTo("FlinkDeployment running's job is RUNNING");
        }
        assertThat(FlinkDeployments.flinkConfiguration(read("autoscaled")))
                .doesNotContainKey("pipeline.jobvertex-parallelism-overrides");
        // No runner is deployed for a Flink target.
        assertThat(client.apps().deployments().inNamespace(NS).list().getItems()).isEmpty();
    }

    private void assertDegraded(String name, String reason, String message) {
        StreamJob job =
                Eventually.await(
                        "StreamJob " + name + " degraded",
                        () -> get(name),
                        j -> j.getStatus() != null && j.getStatus().phase == JobPhase.Failed);
        var degraded = Conditions.find(job.getStatus(), Conditions.DEGRADED).orElseThrow();
        assertThat(degraded.getReason()).isEqualTo(reason);
        assertThat(degraded.getMessage()).contains(message);
        Eventually.await(
                "a Warning Event " + reason + " for " + name,
                () ->
                        client.v1().events().inNamespace(NS).list().getItems().stream()
                                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                                .filter(e -> reason.equals(e.getReason()))
                                .toList(),
                events -> events.size() == 1 && "Warning".equals(events.get(0).getType()));
    }

    private FlinkDeploymentRealizer realizer(String name, Supplier<FlinkJob> job) {
        return new FlinkDeploymentRealizer(
                deployments,
                NS,
                name,
                job,
                () -> {},
                scheduler,
                Duration.ofSeconds(15),
                Clock.systemUTC());
    }

    public static FlinkJob job(int source, int split, int count) {
        return new FlinkJob(
                "5f1c3a0e9b2d4c6f8a7e1d3b5c9f0a2e",
                "word count",
                "RUNNING",
                Optional.of("Adaptive"),
                List.of(
                        new FlinkVertex(SOURCE, "Source: Sentences", source, 128, "RUNNING"),
                        new FlinkVertex(SPLIT, "Split", split, 128, "RUNNING"),
                        new FlinkVertex(COUNT, "Count -> Sink", count, 128, "RUNNING")),
                List.of(
                        new Edge("Source: Sentences", "Split"),
                        new Edge("Split", "Count -> Sink")));
    }

    public static ScalingDecision decision() {
        return ScalingDecision.of(
                Instant.parse("2026-12-01T12:00:00Z"),
                "word count",
                List.of("DS2"),
                List.of(
                        new OperatorDecision(
                                "Source: Sentences", 1, 1, 1, 100, 100, 1, 0, List.of()),
                        new OperatorDecision("Split", 1, 4, 4, 100, 25, 1, 0, List.of()),
                        new OperatorDecision("Count -> Sink", 1, 6, 6, 600, 100, 1, 0, List.of())));
    }

    /** A FlinkDeployment in {@link #NS} valid under the Flink operator 1.10 CRD. */
    public static GenericKubernetesResource deployment(String name, Map<String, Object> config) {
        Map<String, Object> spec = new LinkedHashMap<>();
        // Flink 1.20: the newest the Flink Kubernetes operator 1.10 CRD's flinkVersion allows.
        spec.put("image", "flink:1.20");
        spec.put("flinkVersion", "v1_20");
        spec.put("flinkConfiguration", new LinkedHashMap<>(config));
        spec.put(
                "job",
                Map.of("jarURI", "local:///opt/flink/usrlib/wc.jar", "upgradeMode", "savepoint"));
        GenericKubernetesResource resource =
                new GenericKubernetesResourceBuilder()
                        .withApiVersion("flink.apache.org/v1beta1")
                        .withKind("FlinkDeployment")
                        .withMetadata(
                                new ObjectMetaBuilder().withName(name).withNamespace(NS).build())
                        .build();
        resource.getAdditionalProperties().put("spec", spec);
        return resource;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    }

    private void create(GenericKubernetesResource resource) {
        client.genericKubernetesResources(FlinkDeployments.FLINK_DEPLOYMENT)
                .inNamespace(NS)
                .resource(resource)
                .create();
    }

    private GenericKubernetesResource read(String name) {
        return deployments.get(NS, name).orElseThrow();
    }

    private StreamJob get(String name) {
        return client.resources(StreamJob.class).inNamespace(NS).withName(name).get();
    }

    public static StreamJob target(String namespace, String name, String deployment) {
        StreamJob job = new StreamJob();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        job.setSpec(new StreamJobSpec());
        job.getSpec().flink = new FlinkTarget();
        job.getSpec().flink.deployment = deployment;
        return job;
    }
}
