package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.PodDownsize;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job scaled 2 → 8 → 2 slots (split=1 → 7 → 1, count=1; 500m CPU and 256Mi a slot) ends with its
 * runner pod's requests at 2 slots, so the cluster gets back what the scale-down saved: the pod is
 * resized down in place where the API server serves the resize subresource ({@link PodResizeApi},
 * which refuses to lower a memory limit as Kubernetes 1.33 does), else replaced when that saves
 * more slot-time over the savings horizon than its downtime costs, else kept; the PodDownsized
 * Event and status.downsize say which. The runner is a real process ({@link LocalKubelet}); the
 * kubelet's side of a resize is {@link LocalScheduler}'s.
 */
class ScaleDownFreesResourcesIT {
    static final String NS = RunnerJobHarness.NS;
    @AutoClose final RunnerClusterFixture cluster = new RunnerClusterFixture();
    final KubernetesClient client = cluster.client;

    @TempDir Path dir;

    @Test
    void aScaleDownResizesThePodDownInPlaceAndKeepsItsMemoryLimit() throws IOException {
        cluster.server.servePodResize();
        start(job -> {});

        StreamJob done = scaleTwoToEightToTwo();

        assertThat(done.getStatus().downsize.path).isEqualTo(PodDownsize.IN_PLACE_RESIZE);
        ResourceRequirements resources = awaitRequests("1000m", "512Mi");
        assertThat(resources.getLimits())
                .as("Kubernetes 1.33 lowers no memory limit in place")
                .containsEntry("memory", new Quantity("2048Mi"));
        assertThat(cluster.kubelet.started()).as("the pod was never replaced").isEqualTo(1);
        assertThat(done.getStatus().resizedSlots).isEqualTo(2);
        assertThat(downsizedEvents())
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .contains("resized down in place from 8 to 2 slots"));
        assertThat(cluster.runnerState().parallelism()).containsEntry("split", 1);
    }

    @Test
    void withoutTheResizeSubresourceThePodIsReplacedWhenThatSavesMoreThanItCosts()
            throws IOException {
        start(job -> {});

        StreamJob done = scaleTwoToEightToTwo();

        Eventually.await(
                "the replacement's end",
                cluster::job,
                j -> j.getStatus().pending == null && cluster.kubelet.started() == 3);
        assertThat(done.getStatus().downsize.path).isEqualTo(PodDownsize.POD_REPLACEMENT);
        assertThat(done.getStatus().downsize.message)
                .contains("is replaced by a pod sized for its parallelism")
                .contains("no in-place resize: the API server has no resize subresource");
        ResourceRequirements resources = awaitRequests("1000m", "512Mi");
        assertThat(resources.getLimits()).containsEntry("memory", new Quantity("512Mi"));
        assertThat(RunnerJobHarness.args(client)).contains("--parallelism count=1,split=1");
        Eventually.await(
                "the replacement runs",
                () -> cluster.runnerState().parallelism(),
                p -> Integer.valueOf(1).equals(p.get("split")));
    }

    @Test
    void aPodWhoseReplacementCostsMoreThanItSavesIsKept() throws IOException {
        start(job -> job.getSpec().autoscaler.savingsHorizon = "0s");

        StreamJob done = scaleTwoToEightToTwo();

        assertThat(done.getStatus().downsize.path).isEqualTo(PodDownsize.KEPT);
        assertThat(downsizedEvents())
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .contains("is kept")
                                        .contains("saves 6 slots × 0 s")
                                        .contains("no more than"));
        assertThat(runnerPod().getSpec().getContainers().get(0).getResources().getRequests())
                .containsEntry("cpu", new Quantity("4000m"));
        assertThat(cluster.kubelet.started()).isEqualTo(2);
    }

    /** The PodDownsized Events, once there is one: it is written after the status says why. */
    private List<Event> downsizedEvents() {
        return Eventually.await(
                "the PodDownsized Event",
                () -> RunnerJobHarness.events(client, JobEvents.POD_DOWNSIZED),
                events -> !events.isEmpty());
    }

    /**
     * Records split=7 as the autoscaler records a decision, waits for it, then split=1, and waits
     * for the downsize to be decided.
     */
    private StreamJob scaleTwoToEightToTwo() {
        RunnerJobHarness.awaitJob(client, j -> j.getStatus().phase == JobPhase.Running);
        rescaleTo(7);
        StreamJob down = rescaleTo(1);
        assertThat(down.getStatus().lastRescale.path).isEqualTo(PendingChange.IN_PLACE);
        return RunnerJobHarness.awaitJob(
                client, j -> j.getStatus().downsize != null && j.getStatus().downsize.path != null);
    }

    private StreamJob rescaleTo(int split) {
        StreamJobs.editStatus(
                client, NS, "wc", st -> st.desiredParallelism.putAll(Map.of("split", split)));
        StreamJob done =
                RunnerJobHarness.awaitJob(
                        client,
                        j ->
                                j.getStatus().lastRescale != null
                                        && Integer.valueOf(split)
                                                .equals(j.getStatus().lastRescale.to.get("split"))
                                        && j.getStatus().pending == null
                                        && j.getStatus().phase == JobPhase.Running);
        assertThat(done.getStatus().lastRescale.succeeded)
                .as(done.getStatus().lastRescale.message)
                .isTrue();
        return done;
    }

    private ResourceRequirements awaitRequests(String cpu, String memory) {
        return Eventually.await(
                "the runner pod's requests at 2 slots",
                () -> runnerPod().getSpec().getContainers().get(0).getResources(),
                r ->
                        r.getRequests().get("cpu").equals(new Quantity(cpu))
                                && r.getRequests().get("memory").equals(new Quantity(memory)));
    }

    private void start(Consumer<StreamJob> customize) throws IOException {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.OFF, dir.resolve("savepoints"));
        customize.accept(job);
        cluster.startOnSystemClock(dir, "4", job);
    }

    private Pod runnerPod() {
        return client
                .pods()
                .inNamespace(NS)
                .withLabel("app.kubernetes.io/name", "flowscale-runner")
                .list()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .findFirst()
                .orElseThrow();
    }
}
