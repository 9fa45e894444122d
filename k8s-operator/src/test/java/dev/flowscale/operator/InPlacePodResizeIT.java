package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.runner.RunnerControl;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scale-up beyond the runner pod's resources resizes the running pod in place where the cluster
 * can, on a mock API server that serves the pods' resize subresource as Kubernetes 1.33+ does
 * ({@link PodResizeApi}: strategic merge patches of cpu and memory only; resources changed any
 * other way are refused) or answers 404 as an older one does, with the kubelet's answers played by
 * {@link LocalScheduler} (PodResizeInProgress, then the actual resources in the container's status;
 * PodResizePending Infeasible beyond the node) and a real runner process ({@link LocalKubelet}).
 * The runner starts at split=1,count=1 (2 slots of 500m CPU, 1000m); the scale-up to split=3 needs
 * 2000m.
 */
class InPlacePodResizeIT {
    static final String NS = RunnerJobHarness.NS;
    @AutoClose final RunnerClusterFixture cluster = new RunnerClusterFixture();
    final OptimisticMockServer server = cluster.server;
    final KubernetesClient client = cluster.client;

    @TempDir Path dir;

    @Test
    void aScaleUpBeyondThePodResizesTheRunningPodAndRescalesInsideIt() throws IOException {
        server.servePodResize();
        start("4", job -> {});

        StreamJob done = scaleUpToSplit3();

        assertThat(done.getStatus().lastRescale.path).isEqualTo(PendingChange.IN_PLACE_RESIZE);
        assertThat(done.getStatus().lastRescale.succeeded).isTrue();
        assertThat(cluster.kubelet.started()).as("the pod was not replaced").isEqualTo(1);
        assertThat(RunnerJobHarness.args(client))
                .contains("--parallelism count=1,split=1")
                .doesNotContain("--restore-from");
        assertThat(runnerPod().getSpec().getContainers().get(0).getResources().getRequests())
                .containsEntry("cpu", new Quantity("2000m"))
                .containsEntry("memory", new Quantity("1024Mi"));
        assertThat(runnerState().parallelism()).containsEntry("split", 3);
        assertThat(done.getStatus().resizedSlots).isEqualTo(4);
        // The rescale is reported (Event, then metric) just after its end is written in status.
        String metric =
                "flowscale_controller_rescale_path_downtime_seconds_count{job=\""
                        + NS
                        + "/wc\",path=\"in-place-resize\",result=\"succeeded\"} 1";
        Eventually.await(
                "the resize rescale's metric",
                cluster.registry::scrape,
                scrape -> scrape.contains(metric));
        assertThat(RunnerJobHarness.events(client, JobEvents.RESCALED))
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .contains("(in-place-resize)")
                                        .contains("resized in place"));
        ManifestAuthorizer rbac = ManifestAuthorizer.operatorManifest();
        assertThat(server.resizeRequests())
                .isNotEmpty()
                .allSatisfy(r -> assertThat(rbac.allowsRequest(NS, r)).as(r + " granted").isTrue());
    }

    @Test
    void aServerWithoutTheResizeSubresourceGetsANewPodInstead() throws IOException {
        start("4", job -> {});

        StreamJob done = scaleUpToSplit3();

        assertReplacedBecause(done, "no resize subresource for pods (HTTP 404");
    }

    @Test
    void aResizeTheKubeletFindsInfeasibleGetsANewPodInstead() throws IOException {
        server.servePodResize();
        start("1.5", job -> {});

        StreamJob done = scaleUpToSplit3();

        assertReplacedBecause(
                done,
                "INFEASIBLE: Node didn't have enough capacity: cpu, requested: 2000,"
                        + " capacity: 1500");
        assertThat(server.resizeRequests()).hasSize(1);
    }

    @Test
    void withInPlacePodResizeOffTheScaleUpReplacesThePodWithoutAskingForAResize()
            throws IOException {
        server.servePodResize();
        start("4", job -> job.getSpec().rescaling.inPlacePodResize = false);

        StreamJob done = scaleUpToSplit3();

        assertThat(done.getStatus().lastRescale.path).isEqualTo(PendingChange.POD_REPLACEMENT);
        assertThat(server.resizeRequests()).isEmpty();
        assertThat(done.getStatus().lastRescale.succeeded)
                .as(done.getStatus().lastRescale.message)
                .isTrue();
        assertThat(cluster.kubelet.started()).isEqualTo(2);
    }

    private void assertReplacedBecause(StreamJob done, String why) {
        assertThat(done.getStatus().lastRescale.path).isEqualTo(PendingChange.POD_REPLACEMENT);
        assertThat(done.getStatus().lastRescale.succeeded)
                .as(done.getStatus().lastRescale.message)
                .isTrue();
        assertThat(done.getStatus().lastRescale.message)
                .contains("no in-place resize: ")
                .contains(why);
        assertThat(RunnerJobHarness.events(client, JobEvents.POD_RESIZE_REFUSED))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains(why));
        assertThat(cluster.kubelet.started()).as("a new pod").isEqualTo(2);
        assertThat(RunnerJobHarness.args(client))
                .contains("--parallelism count=1,split=3")
                .contains("--restore-from " + done.getStatus().lastSavepoint);
        assertThat(runnerState().parallelism()).containsEntry("split", 3);
    }

    /** Records split=3 as the autoscaler records a decision, and waits for the rescale's end. */
    private StreamJob scaleUpToSplit3() {
        RunnerJobHarness.awaitJob(client, j -> j.getStatus().phase == JobPhase.Running);
        StreamJobs.editStatus(
                client, NS, "wc", st -> st.desiredParallelism.putAll(Map.of("split", 3)));
        return RunnerJobHarness.awaitJob(
                client,
                j ->
                        j.getStatus().lastRescale != null
                                && j.getStatus().pending == null
                                && j.getStatus().phase == JobPhase.Running);
    }

    private void start(String nodeCpu, Consumer<StreamJob> customize) throws IOException {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.OFF, dir.resolve("savepoints"));
        customize.accept(job);
        cluster.start(
                dir,
                args -> true,
                "4",
                nodeCpu,
                RunnerJobHarness.NO_RESCALE_TIMEOUT,
                Clock.systemUTC(),
                job);
    }

    private Pod runnerPod() {
        return client.pods()
                .inNamespace(NS)
                .withLabel("app.kubernetes.io/name", "flowscale-runner")
                .list()
                .getItems()
                .get(0);
    }

    private RunnerControl.RunnerState runnerState() {
        return cluster.runnerState();
    }
}
