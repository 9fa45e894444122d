package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PodDownsize;
import dev.flowscale.operator.api.SavepointStorage;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.runner.RunnerWatch;
import dev.flowscale.operator.runner.StopAttempts;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;

/**
 * The operator on a real (K3s) cluster: the images Jib built (profile k3s) imported into K3s's
 * containerd, the Helm chart installed, then one StreamJob in mode auto through a rescale, a killed
 * runner pod, the operator's pods deleted in the middle of a rescale, suspend and resume, a pod
 * left Terminating, savepoints that keep failing; a second job scaled 2→8→2 slots; the chart
 * installed for one namespace; and the operator started without its CRD. Run with the command in
 * docs/operator-on-a-cluster.md ({@code mvn -B -Pk3s verify -pl k8s-operator -am ...}); skipped
 * where there is no Docker engine. The steps share one cluster and run in order.
 */
@Testcontainers(disabledWithoutDocker = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class K3sClusterE2E {
    static final String SYSTEM = K3sInstall.SYSTEM;
    static final String NS = "jobs";
    static final String JOB = "wc";
    static final Duration STEP = Duration.ofMinutes(5);
    static final String SHRINK = "shrink";
    static final String TEAM = "team-a";
    static final String HOLD = "e2e.flowscale.dev/hold";
    static final String CRD = "streamjobs.flowscale.dev";
    static final String OPERATOR_LABEL = "app.kubernetes.io/name";
    static final Path CHART = K3sInstall.CHART;

    @Container static final K3sContainer K3S = new K3sContainer(K3sInstall.IMAGE);

    static KubernetesClient client;

    @BeforeAll
    static void installTheChartWithTheJibImages() throws Exception {
        client = K3sInstall.operator(K3S, NS);
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
                                                        && K3sPods.ready(p)));
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
        client.pods().inNamespace(SYSTEM).withLabel(OPERATOR_LABEL, "flowscale-operator").delete();

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

    /**
     * A pod left Terminating (here held by a finalizer, as a lost node's pod is held until the node
     * is deleted: NodeLossIT plays the lost node itself) does not hold back the runner that
     * replaces it.
     */
    @Test
    @Order(5)
    void aRunnerPodLeftTerminatingDoesNotHoldBackItsReplacement() {
        Pod held = runnerPods().get(0);
        String name = held.getMetadata().getName();
        client.pods()
                .inNamespace(NS)
                .withName(name)
                .edit(p -> K3sPods.withFinalizers(p, List.of(HOLD)));
        try {
            edit(
                    j ->
                            j.getSpec().job.args =
                                    List.of("--rate", "2000", "--cost", "split=sleep:2ms"));
            await(
                    "the new runner runs while the old pod is Terminating",
                    j ->
                            j.getStatus().phase == JobPhase.Running
                                    && j.getStatus()
                                            .observedGeneration
                                            .equals(j.getMetadata().getGeneration()));
            Pod old = client.pods().inNamespace(NS).withName(name).get();
            assertThat(old.getMetadata().getDeletionTimestamp())
                    .as("still Terminating")
                    .isNotNull();
            assertThat(runnerPods())
                    .singleElement()
                    .satisfies(p -> assertThat(K3sPods.ready(p)).isTrue());
        } finally {
            client.pods()
                    .inNamespace(NS)
                    .withName(name)
                    .edit(p -> K3sPods.withFinalizers(p, List.of()));
        }
    }

    /**
     * Savepoints that cannot be written (their folder made read-only from inside the runner pod):
     * the change is tried a bounded number of times, reported and abandoned; with upgradeMode
     * last-state it restores the latest checkpoint instead.
     */
    @Test
    @Order(6)
    void aSavepointThatKeepsFailingIsReportedThenFallsBackToTheLatestCheckpoint() throws Exception {
        StreamJob running = await("running", j -> j.getStatus().phase == JobPhase.Running);
        String folder = Path.of(running.getStatus().lastSavepoint).getParent().toString();
        K3sPods.exec(client, runnerPods().get(0), "chmod", "a-w", folder);

        edit(j -> j.getSpec().job.args = List.of("--rate", "2500", "--cost", "split=sleep:2ms"));
        await("the change abandoned", j -> savepointFailing(j, "ChangeAbandoned"));
        assertThat(events(JobEvents.SAVEPOINT_FAILED)).hasSizeGreaterThanOrEqualTo(3);

        edit(j -> j.getSpec().savepoints.upgradeMode = SavepointStorage.LAST_STATE);
        await(
                "the change restored the latest checkpoint",
                j ->
                        savepointFailing(j, "FellBackToCheckpoint")
                                && j.getStatus().phase == JobPhase.Running);
        K3sPods.exec(client, runnerPods().get(0), "chmod", "u+w", folder);
    }

    /**
     * A job scaled from 2 slots to 8 and back ends with its pod's requests at 2 slots again (a new
     * pod: K3s 1.31 has no in-place pod resize by default).
     */
    @Test
    @Order(7)
    void aJobScaledTwoToEightToTwoEndsWithItsPodsRequestsAtTwoSlots() {
        StreamJob job = StreamJobs.wordCount(NS, SHRINK);
        job.getSpec().image = System.getProperty("flowscale.e2e.runner.image");
        job.getSpec().job.args = List.of("--rate", "200");
        job.getSpec().parallelism.clear();
        job.getSpec().parallelism.putAll(Map.of("split", 1, "count", 1));
        job.getSpec().resources.cpu = "50m";
        job.getSpec().resources.memory = "96Mi";
        job.getSpec().savepoints.claimName = null;
        job.getSpec().savepoints.ephemeral = true;
        job.getSpec().autoscaler.mode = AutoscalerMode.OFF;
        job.getSpec().resources.headroom = 0.0; // a pod sized for its parallelism alone
        job.getSpec().autoscaler.savingsHorizon = "1h";
        client.resource(job).create();
        awaitJob(SHRINK, "running at 2 slots", j -> j.getStatus().phase == JobPhase.Running);
        Quantity twoSlots = cpuRequest(SHRINK);

        scale(SHRINK, 7);
        assertThat(cpuRequest(SHRINK).getNumericalAmount())
                .isGreaterThan(twoSlots.getNumericalAmount());
        scale(SHRINK, 1);

        awaitJob(
                SHRINK,
                "the pod downsized",
                j ->
                        j.getStatus().downsize != null
                                && PodDownsize.POD_REPLACEMENT.equals(j.getStatus().downsize.path)
                                && j.getStatus().pending == null);
        Eventually.await(
                STEP,
                "the runner pod's CPU request back at 2 slots",
                () -> cpuRequest(SHRINK),
                q -> q.getNumericalAmount().compareTo(twoSlots.getNumericalAmount()) == 0);
    }

    /**
     * The chart installed for one namespace (watchNamespaces): Roles there and no cluster-wide
     * grant on runner resources; a job in that namespace runs with those rules alone.
     */
    @Test
    @Order(8)
    void aNamespacedInstallRunsAJobWithItsRolesAlone() throws Exception {
        // The chart's Role goes into the namespace, which must exist first.
        client.resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(TEAM)
                                .endMetadata()
                                .build())
                .create();
        new Helm(CHART)
                .upgrade()
                .withName("flowscale")
                .withNamespace(SYSTEM)
                .withKubeConfigContents(K3S.getKubeConfigYaml())
                .reuseValues()
                .set("watchNamespaces[0]", TEAM)
                .waitReady()
                .call();
        assertThat(client.rbac().clusterRoles().list().getItems())
                .as("no ClusterRole grants runner Deployments")
                .noneMatch(
                        r ->
                                r.getRules() != null
                                        && r.getRules().stream()
                                                .anyMatch(
                                                        rule ->
                                                                rule.getResources() != null
                                                                        && rule.getResources()
                                                                                .contains(
                                                                                        "deployments"))
                                        && r.getMetadata().getName().contains("flowscale"));
        StreamJob job = StreamJobs.wordCount(TEAM, "team");
        job.getSpec().image = System.getProperty("flowscale.e2e.runner.image");
        job.getSpec().savepoints.claimName = null;
        job.getSpec().savepoints.ephemeral = true;
        job.getSpec().resources.cpu = "50m";
        job.getSpec().resources.memory = "96Mi";
        job.getSpec().autoscaler.mode = AutoscalerMode.OFF;
        client.resource(job).create();

        Eventually.await(
                STEP,
                "StreamJob team-a/team running",
                () -> client.resources(StreamJob.class).inNamespace(TEAM).withName("team").get(),
                j -> j.getStatus() != null && j.getStatus().phase == JobPhase.Running);
    }

    /** Without its CRD the operator's process exits non-zero, so the kubelet restarts it. */
    @Test
    @Order(9)
    void withoutItsCrdTheOperatorExitsNonZero() {
        client.apiextensions().v1().customResourceDefinitions().withName(CRD).delete();
        Eventually.await(
                STEP,
                "the CRD gone",
                () -> client.apiextensions().v1().customResourceDefinitions().withName(CRD).get(),
                crd -> crd == null);
        client.pods().inNamespace(SYSTEM).withLabel(OPERATOR_LABEL, "flowscale-operator").delete();

        Eventually.await(
                STEP,
                "an operator container that exited non-zero",
                () ->
                        client.pods()
                                .inNamespace(SYSTEM)
                                .withLabel(OPERATOR_LABEL, "flowscale-operator")
                                .list()
                                .getItems(),
                pods -> pods.stream().anyMatch(K3sPods::exitedNonZero));
    }

    private static boolean savepointFailing(StreamJob job, String reason) {
        return Conditions.find(job.getStatus(), StopAttempts.CONDITION)
                .map(c -> reason.equals(c.getReason()))
                .orElse(false);
    }

    private List<io.fabric8.kubernetes.api.model.Event> events(String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    private void scale(String name, int split) {
        StreamJobs.edit(client, NS, name, j -> j.getSpec().parallelism.put("split", split));
        awaitJob(
                name,
                "running at split=" + split,
                j ->
                        j.getStatus().phase == JobPhase.Running
                                && j.getStatus().pending == null
                                && Integer.valueOf(split)
                                        .equals(j.getStatus().parallelism.get("split")));
    }

    private Quantity cpuRequest(String job) {
        return client
                .pods()
                .inNamespace(NS)
                .withLabel("app.kubernetes.io/instance", job)
                .list()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .findFirst()
                .map(
                        p ->
                                p.getSpec()
                                        .getContainers()
                                        .get(0)
                                        .getResources()
                                        .getRequests()
                                        .get("cpu"))
                .orElseThrow(() -> new AssertionError("no runner pod of " + job));
    }

    private StreamJob awaitJob(String name, String what, Predicate<StreamJob> check) {
        return Eventually.await(
                STEP,
                "StreamJob jobs/" + name + ": " + what,
                () -> client.resources(StreamJob.class).inNamespace(NS).withName(name).get(),
                j -> j.getStatus() != null && j.getStatus().phase != null && check.test(j));
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

    private void edit(Consumer<StreamJob> change) {
        StreamJobs.edit(client, NS, JOB, change);
    }

    private StreamJob await(String what, Predicate<StreamJob> check) {
        return awaitJob(JOB, what, check);
    }
}
