package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;

/**
 * The operator on a real (K3s) cluster scaling a job on a Flink session cluster of the official
 * image ({@link K3sFlinkSession}: adaptive scheduler, one slot per TaskManager): Flink's
 * StateMachineExample runs at parallelism 1 on one TaskManager; a StreamJob with {@code
 * spec.flink.restUrl} and bounds 2..2 asks for 2 (spec.flink.taskSlots 2: the cluster adds
 * TaskManagers on demand); the rescale waits in {@code status.pending} for the slot, the operator's
 * pods are deleted meanwhile, and the next leader finishes it in place once a second TaskManager
 * runs. Run with the K3s suite's command (docs/operator-on-a-cluster.md); skipped where there is no
 * Docker engine.
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sFlinkSessionE2E {
    static final String NS = "flink-jobs";
    static final String JOB = "sm";
    static final Duration STEP = Duration.ofMinutes(5);

    @Container static final K3sContainer K3S = new K3sContainer(K3sInstall.IMAGE);

    static KubernetesClient client;

    @BeforeAll
    static void installTheOperatorAndAFlinkSessionCluster() throws Exception {
        client = K3sInstall.operator(K3S, NS);
        K3sFlinkSession.create(client, NS, 1);
        client.apps()
                .deployments()
                .inNamespace(NS)
                .withName(K3sFlinkSession.TASKMANAGER)
                .waitUntilReady(STEP.toMinutes(), TimeUnit.MINUTES);
        client.apps()
                .deployments()
                .inNamespace(NS)
                .withName(K3sFlinkSession.JOBMANAGER)
                .waitUntilReady(STEP.toMinutes(), TimeUnit.MINUTES);
    }

    @AfterAll
    static void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void aSessionJobIsRescaledInPlaceAcrossALeaderChangeOnceItsSlotRuns() throws Exception {
        try (LocalPortForward rest =
                client.services()
                        .inNamespace(NS)
                        .withName(K3sFlinkSession.JOBMANAGER)
                        .portForward(8081)) {
            FlinkRestClient flink =
                    new FlinkRestClient(
                            URI.create("http://127.0.0.1:" + rest.getLocalPort()),
                            Duration.ofSeconds(30));
            String jobId = runTheExample(flink);
            client.resource(sessionTarget(jobId)).create();

            await(
                    "the rescale to 2 recorded and waiting for its slot",
                    j ->
                            j.getStatus().pending != null
                                    && j.getStatus().phase == JobPhase.Rescaling);
            client.pods()
                    .inNamespace(K3sInstall.SYSTEM)
                    .withLabel("app.kubernetes.io/name", "flowscale-operator")
                    .delete();
            K3sFlinkSession.taskManagers(client, NS, 2);

            StreamJob done =
                    await(
                            "the next leader ends the rescale and finds its input cost",
                            j ->
                                    j.getStatus().pending == null
                                            && j.getStatus().lastRescale != null
                                            && j.getStatus().lastRescale.inputCostPending == null);
            var rescale = done.getStatus().lastRescale;
            assertThat(rescale.succeeded).as(rescale.message).isTrue();
            assertThat(rescale.path).isEqualTo("in-place");
            assertThat(rescale.to).containsValue(2);
            assertThat(new FlinkJobRef(flink, jobId).read().parallelism())
                    .as("what Flink runs")
                    .isEqualTo(rescale.to);
        }
    }

    /** Runs the image's example detached from the JobManager's pod; its job id once it runs. */
    private static String runTheExample(FlinkRestClient flink) throws Exception {
        Pod jobManager =
                client.pods()
                        .inNamespace(NS)
                        .withLabel("app", K3sFlinkSession.JOBMANAGER)
                        .list()
                        .getItems()
                        .get(0);
        try (ExecWatch run =
                client.pods()
                        .inNamespace(NS)
                        .withName(jobManager.getMetadata().getName())
                        .redirectingOutput()
                        .redirectingError()
                        .exec("flink", "run", "-d", K3sFlinkSession.EXAMPLE)) {
            int code = run.exitCode().get(STEP.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(code)
                    .as(new String(run.getError().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
        }
        return Eventually.await(STEP, "the example running", () -> running(flink), id -> true);
    }

    /** The only running job's id once all its vertices run; null before (or while REST fails). */
    private static String running(FlinkRestClient flink) {
        try {
            FlinkJobRef job = FlinkJobRef.find(flink, null);
            return job.read().allVerticesRunning() ? job.jobId() : null;
        } catch (FlinkConnectorException notYet) {
            return null;
        }
    }

    private static StreamJob sessionTarget(String jobId) {
        StreamJob job = new StreamJob();
        job.setMetadata(new ObjectMetaBuilder().withName(JOB).withNamespace(NS).build());
        job.setSpec(new StreamJobSpec());
        job.getSpec().flink = new FlinkTarget();
        job.getSpec().flink.restUrl =
                "http://" + K3sFlinkSession.JOBMANAGER + "." + NS + ".svc:8081";
        job.getSpec().flink.job = jobId;
        job.getSpec().flink.taskSlots = 2;
        job.getSpec().autoscaler.mode = AutoscalerMode.AUTO;
        job.getSpec().autoscaler.policyInterval = "10s";
        job.getSpec().autoscaler.warmUp = "10s";
        job.getSpec().autoscaler.minParallelism = 2;
        job.getSpec().autoscaler.maxParallelism = 2;
        job.getSpec().timeouts.rescale = "15m";
        return job;
    }

    private static StreamJob await(String what, Predicate<StreamJob> check) {
        return Eventually.await(
                STEP,
                "StreamJob " + NS + "/" + JOB + ": " + what,
                () -> client.resources(StreamJob.class).inNamespace(NS).withName(JOB).get(),
                j -> j.getStatus() != null && check.test(j));
    }
}
