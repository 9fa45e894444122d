package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.runner.RunnerResources;
import dev.flowscale.operator.runner.RunnerTokens;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator against Fabric8's mock API server in CRUD mode (no server-side apply, no garbage
 * collector).
 */
@EnableKubernetesMockClient(crud = true)
class StreamJobReconcilerIT {
    static final String NS = "jobs";
    KubernetesClient client;
    KubernetesMockServer server;
    TestingOperator operator;

    @BeforeEach
    void startOperator() {
        operator = TestingOperator.start(client);
    }

    @AfterEach
    void stopOperator() {
        operator.close();
    }

    @Test
    void aStreamJobBecomesARunnerDeploymentWithArgsAndRequestsFromTheSpec() {
        createClaim("savepoints");
        client.resource(StreamJobs.wordCount(NS, "wc")).create();

        Deployment d = awaitResource(Deployment.class, "wc-runner");
        var container = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("registry.example/flowscale-runner:0.1.0");
        assertThat(String.join(" ", container.getArgs()))
                .isEqualTo(
                        "run wordcount --metrics-port 9249"
                                + " --savepoint-dir /flowscale/savepoints/jobs/wc --checkpoint-interval 30s --retain 3 --job-name jobs/wc"
                                + " --after-stop linger"
                                + " --parallelism count=3,split=2 --rate 1000");
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/api/v1/ready");
        assertThat(container.getResources().getRequests())
                .containsEntry("cpu", new Quantity("2500m"))
                .containsEntry("memory", new Quantity("1280Mi"));
        assertThat(d.getSpec().getStrategy().getType()).isEqualTo("Recreate");
        assertThat(d.getSpec().getTemplate().getSpec().getVolumes())
                .filteredOn(v -> v.getPersistentVolumeClaim() != null)
                .extracting(v -> v.getPersistentVolumeClaim().getClaimName())
                .containsExactly("savepoints");
        assertThat(container.getVolumeMounts())
                .extracting(m -> m.getMountPath())
                .contains("/flowscale/savepoints");
    }

    @Test
    void aStreamJobGetsAServiceForTheRunnerApiAndAConfigMapWithItsConfiguration() {
        createClaim("savepoints");
        client.resource(StreamJobs.wordCount(NS, "wc")).create();

        Service service = awaitResource(Service.class, "wc-runner");
        assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(9249);
        assertThat(service.getSpec().getSelector())
                .containsEntry("app.kubernetes.io/instance", "wc");
        ConfigMap config = awaitResource(ConfigMap.class, "wc-config");
        assertThat(config.getData().get("job.json"))
                .contains("\"builtin\" : \"wordcount\"")
                .contains("\"split\" : 2");
        assertThat(config.getData().get("autoscaler.json")).contains("\"mode\" : \"recommend\"");
    }

    @Test
    void theStatusShowsDeployingThenRunningOnceTheRunnerIsReady() {
        createClaim("savepoints");
        client.resource(StreamJobs.wordCount(NS, "wc")).create();

        StreamJob deploying = awaitStatus("wc", j -> j.getStatus().phase == JobPhase.Deploying);
        assertThat(deploying.getStatus().observedGeneration).isEqualTo(1L);
        assertThat(deploying.getStatus().parallelismSummary).isEqualTo("count=3,split=2");
        Deployment d = awaitResource(Deployment.class, "wc-runner");
        d.setStatus(new DeploymentStatusBuilder().withReplicas(1).withReadyReplicas(1).build());
        client.resource(d).updateStatus();

        StreamJob running = awaitStatus("wc", j -> j.getStatus().phase == JobPhase.Running);
        assertThat(Conditions.isTrue(running.getStatus(), Conditions.READY)).isTrue();
        assertThat(Conditions.isTrue(running.getStatus(), Conditions.DEGRADED)).isFalse();
        Eventually.await(
                "the autoscaler loop of jobs/wc", () -> operator.loops().running(NS, "wc"), r -> r);
    }

    @Test
    void aChangeRecordedInStatusWithItsSavepointIsCarriedOnByTheNextPass() {
        createClaim("savepoints");
        client.resource(StreamJobs.wordCount(NS, "wc")).create();
        awaitStatus("wc", j -> j.getStatus().phase == JobPhase.Deploying);
        client.resources(StreamJob.class)
                .inNamespace(NS)
                .withName("wc")
                .editStatus(
                        j -> {
                            PendingChange change = new PendingChange();
                            change.reason = "autoscaler";
                            change.path = PendingChange.POD_REPLACEMENT;
                            change.from = Map.of("count", 3, "split", 2);
                            change.to = Map.of("count", 6, "split", 2);
                            change.savepoint = "/flowscale/savepoints/jobs/wc/sp-3";
                            change.started = java.time.Instant.now().toString();
                            j.getStatus().pending = change;
                            return j;
                        });

        Deployment d =
                Eventually.await(
                        "the runner restored from the savepoint in status",
                        () ->
                                client.apps()
                                        .deployments()
                                        .inNamespace(NS)
                                        .withName("wc-runner")
                                        .get(),
                        r ->
                                r.getSpec()
                                        .getTemplate()
                                        .getSpec()
                                        .getContainers()
                                        .get(0)
                                        .getArgs()
                                        .contains("/flowscale/savepoints/jobs/wc/sp-3"));
        assertThat(
                        String.join(
                                " ",
                                d.getSpec()
                                        .getTemplate()
                                        .getSpec()
                                        .getContainers()
                                        .get(0)
                                        .getArgs()))
                .contains(
                        "--parallelism count=6,split=2 --restore-from /flowscale/savepoints/jobs/wc/sp-3");
        StreamJob rescaling = awaitStatus("wc", j -> j.getStatus().phase == JobPhase.Rescaling);
        assertThat(Conditions.isTrue(rescaling.getStatus(), Conditions.SCALING)).isTrue();
    }

    @Test
    void theRunnersTokenSecretIsCreatedOnceAndNeverReplacedByLaterPasses() {
        createClaim("savepoints");
        StreamJob job = client.resource(StreamJobs.wordCount(NS, "wc")).create();
        Secret created = awaitResource(Secret.class, "wc-token");
        String usersToken =
                Base64.getEncoder()
                        .encodeToString("a-token-the-user-set".getBytes(StandardCharsets.US_ASCII));
        created.setData(Map.of(RunnerResources.TOKEN_KEY, usersToken));
        Secret edited = client.resource(created).update();

        StreamJobs.edit(
                client,
                NS,
                "wc",
                j -> j.getSpec().image = "registry.example/flowscale-runner:0.1.1");
        awaitStatus("wc", j -> Long.valueOf(2).equals(j.getStatus().observedGeneration));
        Eventually.await(
                "the runner Deployment of generation 2",
                () -> awaitResource(Deployment.class, "wc-runner"),
                d ->
                        d.getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getImage()
                                .endsWith(":0.1.1"));

        Secret after = client.secrets().inNamespace(NS).withName("wc-token").get();
        assertThat(after.getMetadata().getResourceVersion())
                .as("not written again")
                .isEqualTo(edited.getMetadata().getResourceVersion());
        assertThat(new RunnerTokens(client).apply(job)).hasValue("a-token-the-user-set");
    }

    @Test
    void everyRunnerResourceIsControlledByTheStreamJobSoDeletingItDeletesThem() {
        createClaim("savepoints");
        StreamJob job = client.resource(StreamJobs.wordCount(NS, "wc")).create();

        for (HasMetadata owned :
                List.of(
                        awaitResource(Deployment.class, "wc-runner"),
                        awaitResource(Service.class, "wc-runner"),
                        awaitResource(ConfigMap.class, "wc-config"))) {
            assertThat(owned.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(
                            ref -> {
                                assertThat(ref.getUid()).isEqualTo(job.getMetadata().getUid());
                                assertThat(ref.getKind()).isEqualTo("StreamJob");
                                assertThat(ref.getController()).isTrue();
                            });
        }
        client.resource(job).delete();
        Eventually.await(
                "StreamJob wc deleted",
                () ->
                        client.resources(StreamJob.class).inNamespace(NS).withName("wc").get()
                                        == null
                                ? "gone"
                                : null,
                s -> true);
    }

    @Test
    void anUnknownBuiltinJobFailsWithAConditionThatSaysWhatToFixAndOneWarningEvent() {
        createClaim("savepoints");
        StreamJob job = StreamJobs.wordCount(NS, "typo");
        job.getSpec().job.builtin = "wordcont";
        client.resource(job).create();

        StreamJob failed = awaitStatus("typo", j -> j.getStatus().phase == JobPhase.Failed);
        assertThat(Conditions.find(failed.getStatus(), Conditions.DEGRADED))
                .hasValueSatisfying(
                        c -> {
                            assertThat(c.getReason()).isEqualTo(JobEvents.INVALID_SPEC);
                            assertThat(c.getMessage())
                                    .contains("spec.job.builtin 'wordcont'")
                                    .contains("[chain, kafka-wordcount, nexmark-q1, nexmark-q11,")
                                    .contains("sensor-alerts, wordcount]");
                        });
        assertThat(awaitEvents("typo", JobEvents.INVALID_SPEC))
                .singleElement()
                .satisfies(e -> assertThat(e.getType()).isEqualTo("Warning"));
        assertThat(client.apps().deployments().inNamespace(NS).withName("typo-runner").get())
                .isNull();
    }

    @Test
    void minParallelismAboveMaxFailsUntilTheSpecIsFixed() {
        createClaim("savepoints");
        StreamJob job = StreamJobs.wordCount(NS, "bounds");
        job.getSpec().autoscaler.minParallelism = 8;
        job.getSpec().autoscaler.maxParallelism = 4;
        client.resource(job).create();

        StreamJob failed = awaitStatus("bounds", j -> j.getStatus().phase == JobPhase.Failed);
        assertThat(
                        Conditions.find(failed.getStatus(), Conditions.DEGRADED)
                                .orElseThrow()
                                .getMessage())
                .contains(
                        "spec.autoscaler.minParallelism 8 is above spec.autoscaler.maxParallelism 4; lower it or raise the maximum");
        StreamJobs.edit(client, NS, "bounds", j -> j.getSpec().autoscaler.minParallelism = 1);

        StreamJob fixed = awaitStatus("bounds", j -> j.getStatus().phase == JobPhase.Deploying);
        assertThat(fixed.getStatus().observedGeneration).isEqualTo(2L);
        assertThat(awaitResource(Deployment.class, "bounds-runner")).isNotNull();
    }

    @Test
    void aMissingSavepointClaimFailsWithAConditionNamingTheClaim() {
        client.resource(StreamJobs.wordCount(NS, "noclaim")).create();

        StreamJob failed = awaitStatus("noclaim", j -> j.getStatus().phase == JobPhase.Failed);
        assertThat(Conditions.find(failed.getStatus(), Conditions.DEGRADED))
                .hasValueSatisfying(
                        c -> {
                            assertThat(c.getReason()).isEqualTo(JobEvents.SAVEPOINT_CLAIM_MISSING);
                            assertThat(c.getMessage())
                                    .contains("PersistentVolumeClaim 'savepoints'")
                                    .contains("create it");
                        });
        assertThat(awaitEvents("noclaim", JobEvents.SAVEPOINT_CLAIM_MISSING)).hasSize(1);
    }

    @Test
    void withLeaderElectionAndTheManifestsRbacTheLeaderHoldsTheLeaseAndReconciles()
            throws IOException {
        operator.close();
        // The SDK first reviews its rules in the Lease's namespace: answered from
        // deploy/operator.yaml's
        // Roles and bindings as the API server would, so a missing verb fails here as in a cluster.
        ManifestAuthorizer.operatorManifest().answerRulesReviews(server);
        var election = TestingOperator.testElection();
        operator = TestingOperator.electing(client, election);
        createClaim("savepoints");
        client.resource(StreamJobs.wordCount(NS, "wc")).create();

        awaitResource(Deployment.class, "wc-runner");
        io.fabric8.kubernetes.api.model.coordination.v1.Lease lease =
                client.leases()
                        .inNamespace("flowscale-system")
                        .withName(FlowscaleOperator.LEASE)
                        .get();
        assertThat(lease.getSpec().getHolderIdentity()).isNotBlank();
    }

    /**
     * kafka-wordcount's Kafka settings become runner options, and its client settings environment
     * variables the kubelet takes from the user's Secret. The Secret is never created here: on a
     * real cluster the kubelet, not the operator, reads it when it starts the pod, so the operator
     * must get as far as the Deployment without it (and without any right to read it).
     */
    @Test
    void theRunnerPodTakesKafkaOptionsFromTheSpecAndCredentialsFromTheSecretByReference() {
        createClaim("savepoints");
        client.resource(StreamJobs.kafkaWordCount(NS, "kwc")).create();

        Deployment d = awaitResource(Deployment.class, "kwc-runner");
        Container runner = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(String.join(" ", runner.getArgs()))
                .startsWith("run kafka-wordcount ")
                .contains(
                        "--kafka-bootstrap-servers broker:9092 --kafka-topic sentences"
                                + " --kafka-output-topic counts --kafka-group-id wordcount");
        assertThat(runner.getEnv())
                .filteredOn(e -> e.getName().startsWith("KAFKA_CLIENT_"))
                .extracting(EnvVar::getName)
                .containsExactly("KAFKA_CLIENT_SECURITY_PROTOCOL", "KAFKA_CLIENT_SASL_JAAS_CONFIG");
        EnvVar jaas = env(runner, "KAFKA_CLIENT_SASL_JAAS_CONFIG");
        assertThat(jaas.getValue()).as("no value copied into the pod spec").isNull();
        assertThat(jaas.getValueFrom().getSecretKeyRef().getName()).isEqualTo("kafka-client");
        assertThat(jaas.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("sasl.jaas.config");
        assertThat(client.resources(Secret.class).inNamespace(NS).withName("kafka-client").get())
                .as("the operator created no such Secret (nor needed one)")
                .isNull();
    }

    private static EnvVar env(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow();
    }

    private void createClaim(String name) {
        client.resource(StreamJobs.savepointClaim(NS, name)).create();
    }

    private <T extends HasMetadata> T awaitResource(Class<T> type, String name) {
        return Eventually.await(
                type.getSimpleName() + " " + NS + "/" + name,
                () -> client.resources(type).inNamespace(NS).withName(name).get(),
                r -> true);
    }

    private StreamJob awaitStatus(String name, java.util.function.Predicate<StreamJob> check) {
        return Eventually.await(
                "status of StreamJob " + NS + "/" + name,
                () -> client.resources(StreamJob.class).inNamespace(NS).withName(name).get(),
                j -> j.getStatus() != null && j.getStatus().phase != null && check.test(j));
    }

    private List<Event> awaitEvents(String name, String reason) {
        return Eventually.await(
                "Event " + reason + " on " + name,
                () ->
                        client.v1().events().inNamespace(NS).list().getItems().stream()
                                .filter(
                                        e ->
                                                name.equals(e.getInvolvedObject().getName())
                                                        && reason.equals(e.getReason()))
                                .toList(),
                l -> !l.isEmpty());
    }
}
