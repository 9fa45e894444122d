package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

public class RunnerPodTemplateTest {
    public static final String USER_TEMPLATE =
            """
            metadata:
              labels: {team: data, app.kubernetes.io/instance: hijacked}
              annotations: {example.com/owner: data-team}
            spec:
              serviceAccountName: wc-reader
              imagePullSecrets: [{name: registry-credentials}]
              nodeSelector: {pool: streaming}
              tolerations: [{key: dedicated, operator: Equal, value: streaming, effect: NoSchedule}]
              affinity:
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
              volumes: [{name: certs, secret: {secretName: kafka-certs}}]
              containers:
                - name: runner
                  image: attacker/image:latest
                  args: [--rate, "1"]
                  env: [{name: KAFKA_PASSWORD, valueFrom: {secretKeyRef: {name: kafka, key: password}}}]
                  envFrom: [{secretRef: {name: job-settings}}]
                  volumeMounts: [{name: certs, mountPath: /etc/certs, readOnly: true}]
            """;
    private final StreamJob job = StreamJobs.wordCount("jobs", "wc");
    private final Map<String, Integer> parallelism = new TreeMap<>(Map.of("split", 2, "count", 3));

    @Test
    void theUsersTemplateAddsSchedulingCredentialsEnvAndVolumesToTheRunnerPod() {
        job.getSpec().podTemplate = Serialization.unmarshal(USER_TEMPLATE, PodTemplateSpec.class);
        PodSpec pod = template().getSpec();
        Container runner = pod.getContainers().get(0);

        assertThat(pod.getServiceAccountName()).isEqualTo("wc-reader");
        assertThat(pod.getImagePullSecrets())
                .extracting(s -> s.getName())
                .containsExactly("registry-credentials");
        assertThat(pod.getNodeSelector()).containsEntry("pool", "streaming");
        assertThat(pod.getTolerations()).extracting(t -> t.getKey()).containsExactly("dedicated");
        assertThat(pod.getAffinity().getNodeAffinity()).isNotNull();
        assertThat(pod.getVolumes())
                .extracting(v -> v.getName())
                .containsExactly("certs", "config", "savepoints");
        assertThat(runner.getEnv())
                .extracting(e -> e.getName())
                .containsExactly("KAFKA_PASSWORD", RunnerResources.TOKEN_ENV);
        assertThat(runner.getEnvFrom())
                .extracting(e -> e.getSecretRef().getName())
                .containsExactly("job-settings");
        assertThat(runner.getVolumeMounts())
                .extracting(m -> m.getMountPath())
                .containsExactly(
                        "/etc/certs", RunnerDeployment.CONFIG_DIR, "/flowscale/savepoints");
        assertThat(template().getMetadata().getAnnotations())
                .containsEntry("example.com/owner", "data-team");
        assertThat(template().getMetadata().getLabels()).containsEntry("team", "data");
    }

    @Test
    void theOperatorsOwnFieldsWinOverTheTemplate() {
        job.getSpec().podTemplate = Serialization.unmarshal(USER_TEMPLATE, PodTemplateSpec.class);
        Container runner = template().getSpec().getContainers().get(0);

        assertThat(runner.getImage()).isEqualTo(job.getSpec().image);
        assertThat(runner.getArgs()).startsWith("run", "wordcount").doesNotContain("1");
        assertThat(template().getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/instance", "wc");
    }

    @Test
    void theTemplateMayOverrideTheSecurityDefaultsSuchAsTheUser() {
        job.getSpec().podTemplate =
                Serialization.unmarshal(
                        "spec: {securityContext: {runAsUser: 20002}}", PodTemplateSpec.class);
        PodSpec pod = template().getSpec();

        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(20002L);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType())
                .isEqualTo("RuntimeDefault");
    }

    @Test
    void aSidecarInTheTemplateIsAddedBesideTheRunner() {
        job.getSpec().podTemplate =
                Serialization.unmarshal(
                        "spec: {containers: [{name: log-shipper, image: example/shipper:1}]}",
                        PodTemplateSpec.class);

        assertThat(template().getSpec().getContainers())
                .extracting(c -> c.getName())
                .containsExactly(RunnerDeployment.CONTAINER, "log-shipper");
    }

    @Test
    void theRunnerGetsItsControlTokenFromTheJobsSecret() {
        Container runner = template().getSpec().getContainers().get(0);

        assertThat(runner.getEnv())
                .singleElement()
                .satisfies(
                        env -> {
                            assertThat(env.getName()).isEqualTo("FLOWSCALE_RUNNER_TOKEN");
                            assertThat(env.getValueFrom().getSecretKeyRef().getName())
                                    .isEqualTo("wc-token");
                            assertThat(env.getValueFrom().getSecretKeyRef().getKey())
                                    .isEqualTo("token");
                        });
        assertThat(RunnerResources.tokenSecret(job).getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getController()).isTrue());
        assertThat(RunnerResources.tokenSecret(job).getData().get("token"))
                .isNotEqualTo(RunnerResources.tokenSecret(job).getData().get("token"));
    }

    private PodTemplateSpec template() {
        Deployment d = RunnerDeployment.desired(job, parallelism, null);
        return d.getSpec().getTemplate();
    }
}
