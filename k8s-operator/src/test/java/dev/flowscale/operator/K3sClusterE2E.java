package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.runner.RunnerWatch;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The operator on a real (K3s) cluster: the images Jib built (profile k3s) imported into K3s's
 * containerd, the Helm chart installed, then one StreamJob in mode auto through a rescale, a killed
 * runner pod, the operator's pods deleted in the middle of a rescale, and suspend and resume. Run
 * with the command in docs/operator-on-a-cluster.md ({@code mvn -B -Pk3s verify -pl k8s-operator
 * -am ...}); skipped where there is no Docker engine. The steps share one cluster and run in order.
 */
@Testcontainers(disabledWithoutDocker = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class K3sClusterE2E {
    static final String SYSTEM = "flowscale-system";
    static final String NS = "jobs";
    static final String JOB = "wc";
    static final Duration STEP = Duration.ofMinutes(5);

    @Container
    static final K3sContainer K3S =
            new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

    static KubernetesClient client;

    @BeforeAll
    static void installTheChartWithTheJibImages() throws Exception {
        importImage(System.getProperty("flowscale.e2e.operator.tar"));
        importImage(System.getProperty("flowscale.e2e.runner.tar"));
        String kubeconfig = K3S.getKubeConfigYaml();
        client =
                new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
        String operator = System.getProperty("flowscale.e2e.operator.image");
        new Helm(Path.of("..", "charts", "flowscale"))
                .install()
                .withName("flowscale")
                .withNamespace(SYSTEM)
                .createNamespace()
                .withKubeConfigContents(kubeconfig)
                .set("image.repository", operator.substring(0, operator.lastIndexOf(':')))
                .set("image.tag", operator.substring(operator.lastIndexOf(':') + 1))
                .set("image.pullPolicy", "Never")
                .set("networkPolicy.namespaces[0]", NS)
                .set("runnerTimeouts.deploy", "3m")
                .waitReady()
                .call();
        client.resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                .create();
        // K3s's local-path provisioner: a ReadWriteOnce claim on the node's disk.
        client.resource(
                        new PersistentVolumeClaimBuilder()
                                .withNewMetadata()
                                .withName("wc-snapshots")
                                .withNamespace(NS)
                                .endMetadata()
                                .withNewSpec()
                                .withAccessModes("ReadWriteOnce")
                                .withNewResources()
                                .addToRequests("storage", new Quantity("1Gi"))
                                .endResources()
                                .endSpec()
                                .build())
                .create();
    }

    @AfterAll
    static void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    @Order(1)
    void aStreamJobInAutoModeScalesUpItsBottleneck() {
        client.resource(bottleneckedWordCount()).create();

        StreamJob job =
                await(
                        "the autoscaler rescales split above 1",
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().parallelism.getOrDefault("split", 1) > 1);
        assertThat(job.getStatus().lastSavepoint).isNotBlank();
        assertThat(Conditions.isTrue(job.getStatus(), RunnerWatch.CONDITION)).isTrue();
    }

    @Test
    @Order(2)
    void aKilledRunnerPodIsReplacedAndTheJobRunsAgain() {
        Pod killed = runnerPods().get(0);
        client.resource(killed).withGracePeriod(0).delete();

        Eventually.await(
                STEP,
                "a new ready runner pod",
                this::runnerPods,
                pods ->
                        pods.stream()
                                .anyMatch(
                                        p ->
                                                !p.getMetadata()
                                                                .getUid()
                                                                .equals(
                                                                        killed.getMetadata()
                                                                                .getUid())
                                                        && ready(p)));
        await("the job runs again", j -> j.getStatus().phase == JobPhase.Running);
    }

    @Test
    @Order(3)
    void theOperatorsPodsDeletedDuringARescaleConvergeOnOneRunner() {
        edit(j -> j.getSpec().job.args = List.of("--rate", "3000", "--cost", "split=sleep:2ms"));
        await(
                "a rescale in progress",
                j ->
                        j.getStatus().phase == JobPhase.Rescaling
                                || j.getStatus().phase == JobPhase.Deploying);
        client.pods()
                .inNamespace(SYSTEM)
                .withLabel("app.kubernetes.io/name", "flowscale-operator")
                .delete();

        StreamJob job =
                await(
                        "the new operator converges",
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus()
                                                .observedGeneration
                                                .equals(j.getMetadata().getGeneration())
                                        && !Conditions.isTrue(j.getStatus(), Conditions.SCALING));
        assertThat(runnerPods()).hasSize(1);
        assertThat(job.getStatus().parallelism.get("split")).isGreaterThan(1);
    }

    @Test
    @Order(4)
    void suspendStopsTheRunnerWithASavepointAndResumeRestoresFromIt() {
        edit(j -> j.getSpec().suspend = true);
        StreamJob suspended = await("suspended", j -> j.getStatus().phase == JobPhase.Suspended);
        Eventually.await(STEP, "no runner pod", this::runnerPods, List::isEmpty);

        edit(j -> j.getSpec().suspend = false);
        await("resumed", j -> j.getStatus().phase == JobPhase.Running);
        List<String> args =
                client.apps()
                        .deployments()
                        .inNamespace(NS)
                        .withName("wc-runner")
                        .get()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs();
        assertThat(args).containsSubsequence("--restore-from", suspended.getStatus().lastSavepoint);
    }

    private static StreamJob bottleneckedWordCount() {
        StreamJob job = StreamJobs.wordCount(NS, JOB);
        job.getSpec().image = System.getProperty("flowscale.e2e.runner.image");
        job.getSpec().job.args = List.of("--rate", "1500", "--cost", "split=sleep:2ms");
        job.getSpec().parallelism.clear();
        job.getSpec().parallelism.putAll(Map.of("split", 1, "count", 1));
        job.getSpec().resources.cpu = "50m";
        job.getSpec().resources.memory = "96Mi";
        job.getSpec().savepoints.claimName = "wc-snapshots";
        job.getSpec().autoscaler.mode = AutoscalerMode.AUTO;
        job.getSpec().autoscaler.policyInterval = "5s";
        job.getSpec().autoscaler.warmUp = "5s";
        job.getSpec().autoscaler.maxParallelism = 6;
        return job;
    }

    private static void importImage(String tar) throws Exception {
        assertThat(tar).as("system property with the Jib tar: run with -Pk3s").isNotBlank();
        assertThat(Path.of(tar))
                .as("Jib's image tar (built in the package phase of -Pk3s)")
                .exists();
        String inContainer = "/tmp/" + Path.of(tar).getFileName();
        K3S.copyFileToContainer(MountableFile.forHostPath(tar), inContainer);
        ExecResult result =
                K3S.execInContainer("ctr", "-n", "k8s.io", "images", "import", inContainer);
        assertThat(result.getExitCode())
                .as("ctr images import %s: %s", tar, result.getStderr())
                .isZero();
    }

    private List<Pod> runnerPods() {
        return client
                .pods()
                .inNamespace(NS)
                .withLabel("app.kubernetes.io/instance", JOB)
                .list()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private void edit(Consumer<StreamJob> change) {
        StreamJobs.edit(client, NS, JOB, change);
    }

    private StreamJob await(String what, Predicate<StreamJob> check) {
        return Eventually.await(
                STEP,
                "StreamJob jobs/wc: " + what,
                () -> client.resources(StreamJob.class).inNamespace(NS).withName(JOB).get(),
                j -> j.getStatus() != null && j.getStatus().phase != null && check.test(j));
    }
}
