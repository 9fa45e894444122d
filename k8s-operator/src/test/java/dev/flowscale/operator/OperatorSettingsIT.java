package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.HttpRunnerControl;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operator's own settings (watched namespaces, autoscaler defaults) on the mock API server. */
@EnableKubernetesMockClient(crud = true)
class OperatorSettingsIT {
    KubernetesClient client;
    Operator operator;
    JobAutoscalers loops;

    @BeforeEach
    void installCrd() throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        loops =
                FlowscaleOperator.loops(
                        client,
                        new SimpleMeterRegistry(),
                        HttpRunnerControl::serviceAddress,
                        Duration.ofSeconds(5),
                        Clock.systemUTC());
    }

    @AfterEach
    void stopOperator() {
        operator.stop();
        loops.close();
    }

    @Test
    void anOperatorWatchingSomeNamespacesLeavesStreamJobsElsewhereAlone() {
        start(Set.of("team-a"), AutoscalerDefaults.builtIn());
        createJob("team-b", "wc");
        createJob("team-a", "wc");

        Eventually.await("the runner of team-a/wc", () -> deployment("team-a"), d -> d != null);
        assertThat(deployment("team-b")).as("team-b is not watched").isNull();
        StreamJob ignored =
                client.resources(StreamJob.class).inNamespace("team-b").withName("wc").get();
        assertThat(ignored.getStatus() == null ? null : ignored.getStatus().phase).isNull();
    }

    @Test
    void theOperatorsDefaultsFillInWhatAJobLeavesOutAndAreCheckedWithTheJob() {
        start(Set.of(), AutoscalerDefaults.fromJson("{\"mode\":\"auto\",\"maxParallelism\":2}"));
        createJob("team-a", "wc"); // split=2, count=3: above the default maximum

        StreamJob failed =
                Eventually.await(
                        "StreamJob team-a/wc failed",
                        () ->
                                client.resources(StreamJob.class)
                                        .inNamespace("team-a")
                                        .withName("wc")
                                        .get(),
                        j -> j.getStatus() != null && j.getStatus().phase == JobPhase.Failed);
        assertThat(Conditions.find(failed.getStatus(), Conditions.DEGRADED))
                .hasValueSatisfying(
                        c ->
                                assertThat(c.getMessage())
                                        .contains("spec.parallelism.count is 3")
                                        .contains("maxParallelism (2)"));
        assertThat(failed.getSpec().autoscaler.mode)
                .as("the spec on the server is never written")
                .isNull();

        StreamJobs.edit(client, "team-a", "wc", j -> j.getSpec().autoscaler.maxParallelism = 8);
        ConfigMap config =
                Eventually.await(
                        "the configuration of team-a/wc",
                        () -> client.configMaps().inNamespace("team-a").withName("wc-config").get(),
                        c -> c != null);
        assertThat(config.getData().get("autoscaler.json"))
                .contains("\"mode\" : \"auto\"")
                .contains("\"maxParallelism\" : 8");
    }

    private void start(Set<String> namespaces, AutoscalerDefaults defaults) {
        operator =
                FlowscaleOperator.create(
                        client,
                        loops,
                        new HttpRunnerControl(
                                HttpRunnerControl::serviceAddress, Duration.ofSeconds(5)),
                        Clock.systemUTC(),
                        null,
                        namespaces,
                        defaults);
        operator.start();
    }

    private void createJob(String namespace, String name) {
        client.resource(StreamJobs.savepointClaim(namespace, "savepoints")).create();
        client.resource(StreamJobs.wordCount(namespace, name)).create();
    }

    private Deployment deployment(String namespace) {
        return client.apps().deployments().inNamespace(namespace).withName("wc-runner").get();
    }
}
