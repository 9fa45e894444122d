package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.policy.sim.ManualClock;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner whose node is lost, on the mock API server with the pod life cycle of a cluster played
 * explicitly ({@link LocalScheduler}: Recreate and ReplicaSet; {@link LostNodes}: the API server's
 * deletion of a pod whose kubelet never confirms; {@link LocalKubelet}: one runner process per
 * running pod). The pod of a lost node is marked not ready, then evicted: it turns Terminating and
 * stays so. The operator runs on a manual clock; the rest runs in real time.
 */
class NodeLossIT {
    static final String NS = RunnerJobHarness.NS;
    static final Pattern RESTORED =
            Pattern.compile(
                    "restore: restoring the latest complete snapshot in storage, \\S+ (\\d+) at");
    static final Pattern SNAPSHOT_ID = Pattern.compile("(?:chk|savepoint)-(\\d+)");
    @AutoClose final RunnerClusterFixture cluster = new RunnerClusterFixture();
    final KubernetesClient client = cluster.client;
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T08:00:00Z"));

    @TempDir Path dir;

    @Test
    void aRunnerWhoseNodeIsLostAfterAnInPlaceRescaleRunsAgainAtThatParallelismFromItsState()
            throws IOException {
        StreamJob rescaled = startAndRescaleInPlace();

        cluster.loseNode(clock::instant);
        cluster.evictFromLostNodes();

        Pod stuck = awaitStuckPod();
        StreamJob back =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().pending == null
                                        && cluster.kubelet.started() == 2
                                        && runs(Map.of("split", 2)));
        assertThat(back.getStatus().parallelism).containsEntry("split", 2);
        assertThat(restoredId(2))
                .as("the new runner resumes from the in-place rescale's savepoint or a newer one")
                .isGreaterThanOrEqualTo(snapshotId(rescaled.getStatus().lastSavepoint));
        assertThat(client.pods().inNamespace(NS).withName(stuck.getMetadata().getName()).get())
                .as("the evicted pod is still Terminating: nothing waited for it")
                .isNotNull();
        assertThat(RunnerJobHarness.events(client, JobEvents.STUCK_POD_DELETED)).isEmpty();
    }

    @Test
    void aSpecChangeWhileTheNodeIsLostDeletesThePodStuckTerminatingAndStartsTheNewRunner()
            throws IOException {
        start();
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        cluster.loseNode(clock::instant);
        awaitJob(j -> !Conditions.isTrue(j.getStatus(), Conditions.READY));

        RunnerJobHarness.editSpec(
                client,
                j -> j.getSpec().job.args = List.of("--rate", "1400", "--cost", "split=sleep:2ms"));
        // The unreachable runner may only be slow to answer: the change waits for it until its pod
        // shows a problem, here no ready pod within spec.timeouts.deploy (5 minutes by default).
        clock.advance(Duration.ofMinutes(6));
        Pod stuck = awaitStuckPod(); // Recreate deleted it for the new template; it never goes
        clock.advance(Duration.ofMinutes(2)); // past its deadline by more than a minute

        awaitJob(
                j ->
                        j.getStatus().phase == JobPhase.Running
                                && RunnerJobHarness.args(client).contains("--rate 1400")
                                && cluster.kubelet.started() == 2);
        assertThat(client.pods().inNamespace(NS).withName(stuck.getMetadata().getName()).get())
                .isNull();
        assertThat(RunnerJobHarness.events(client, JobEvents.STUCK_POD_DELETED))
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .contains(stuck.getMetadata().getName())
                                        .contains("on node node-1")
                                        .contains("grace period 0")
                                        .contains("fenced by its epoch"));
        ManifestAuthorizer rbac = ManifestAuthorizer.operatorManifest();
        assertThat(cluster.server.forcedDeletes())
                .singleElement()
                .satisfies(r -> assertThat(rbac.allowsRequest(NS, r)).as(r + " granted").isTrue());
    }

    @Test
    void aRunnerThatIsOnlySlowToAnswerIsNotRestarted() throws IOException, InterruptedException {
        StreamJob rescaled = startAndRescaleInPlace();
        String args = RunnerJobHarness.args(client);

        cluster.kubelet.freeze();
        try {
            // The pass that saw the runner not ready and unreachable (up to the control API's
            // timeouts) writes Ready False after it decided what to do with it.
            awaitJob(
                    j ->
                            !Conditions.isTrue(j.getStatus(), Conditions.READY)
                                    && j.getStatus().phase == JobPhase.Deploying);
            assertThat(RunnerJobHarness.args(client))
                    .as("the runner's pod template is left as it was")
                    .isEqualTo(args);
        } finally {
            cluster.kubelet.thaw();
        }

        awaitJob(j -> j.getStatus().phase == JobPhase.Running && runs(Map.of("split", 2)));
        assertThat(cluster.kubelet.started()).as("the slow runner was not replaced").isEqualTo(1);
        assertThat(RunnerJobHarness.args(client)).isEqualTo(args);
        assertThat(rescaled.getStatus().parallelism).containsEntry("split", 2);
    }

    @Test
    void anUpgradeOfARunnerThatIsOnlySlowToAnswerWaitsForItsSavepointBeforeReportingTheGeneration()
            throws Exception {
        start();
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        int before = RunnerJobHarness.statusWrites(cluster.server).size();
        cluster.kubelet.freeze();
        try {
            awaitJob(j -> j.getStatus().phase == JobPhase.Deploying);
            RunnerJobHarness.editSpec(
                    client,
                    j ->
                            j.getSpec().job.args =
                                    List.of("--rate", "1400", "--cost", "split=sleep:2ms"));
            // A pass of generation 2 saw the runner unreachable and decided what to do with it
            // before it wrote condition Ready for generation 2.
            awaitJob(j -> readyObserved(j, 2L));
        } finally {
            cluster.kubelet.thaw();
        }

        StreamJob upgraded =
                awaitJob(
                        j ->
                                j.getStatus().observedGeneration == 2L
                                        && j.getStatus().pending == null
                                        && j.getStatus().phase == JobPhase.Running);
        List<StreamJobStatus> all = RunnerJobHarness.statusWrites(cluster.server);
        List<StreamJobStatus> writes = all.subList(before, all.size());
        int observed = firstObserving(writes, 2L);
        assertThat(writes.subList(observed, writes.size()))
                .as("every status of generation 2 names the upgrade's savepoint")
                .allSatisfy(s -> assertThat(s.lastSavepoint).isNotNull());
        assertThat(writes.subList(0, observed))
                .as("the upgrade's savepoint was recorded before generation 2 was reported")
                .anySatisfy(
                        s -> {
                            assertThat(s.pending).isNotNull();
                            assertThat(s.pending.generation).isEqualTo(2L);
                            assertThat(s.pending.savepoint).isEqualTo(s.lastSavepoint).isNotNull();
                        });
        assertThat(RunnerJobHarness.args(client))
                .contains("--rate 1400")
                .contains("--restore-from " + upgraded.getStatus().lastSavepoint);
        assertThat(cluster.stopRequests()).as("one stop with a savepoint").isEqualTo(1);
        assertThat(
                        Eventually.await(
                                "the Event that generation 2 was applied",
                                () -> RunnerJobHarness.events(client, JobEvents.DEPLOYED),
                                e -> e.stream().anyMatch(d -> d.getMessage().endsWith(" 2"))))
                .filteredOn(e -> e.getMessage().endsWith("for generation 2"))
                .singleElement();
    }

    private static boolean readyObserved(StreamJob job, Long generation) {
        return Conditions.find(job.getStatus(), Conditions.READY)
                .map(c -> generation.equals(c.getObservedGeneration()))
                .orElse(false);
    }

    /** The index of the first status that reports {@code generation} observed. */
    private static int firstObserving(List<StreamJobStatus> writes, Long generation) {
        for (int i = 0; i < writes.size(); i++) {
            if (generation.equals(writes.get(i).observedGeneration)) {
                return i;
            }
        }
        throw new AssertionError("no status write reports generation " + generation + " observed");
    }

    /** Starts the job at split=1 in a pod sized for 8 slots, then rescales it in place to 2. */
    private StreamJob startAndRescaleInPlace() throws IOException {
        start();
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        RunnerJobHarness.editSpec(client, j -> j.getSpec().parallelism.put("split", 2));
        StreamJob rescaled =
                awaitJob(
                        j ->
                                j.getStatus().lastRescale != null
                                        && j.getStatus().lastRescale.succeeded
                                        && j.getStatus().pending == null);
        assertThat(rescaled.getStatus().lastRescale.path).isEqualTo(PendingChange.IN_PLACE);
        assertThat(RunnerJobHarness.args(client)).contains("--parallelism count=1,split=1");
        // Ready again after the rescale, so that a later Ready False comes from a later pass.
        return awaitJob(
                j ->
                        j.getStatus().phase == JobPhase.Running
                                && Conditions.isTrue(j.getStatus(), Conditions.READY));
    }

    private void start() throws IOException {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.OFF, dir.resolve("savepoints"));
        job.getSpec().resources.headroom = 3.0;
        job.getSpec().savepoints.checkpointInterval = "1s";
        cluster.withPodLifeCycle();
        cluster.startOnManualClock(dir, clock, job);
    }

    private Pod awaitStuckPod() {
        return Eventually.await(
                RunnerJobHarness.WAIT,
                "a runner pod Terminating",
                () ->
                        client.pods().inNamespace(NS).list().getItems().stream()
                                .filter(p -> p.getMetadata().getDeletionTimestamp() != null)
                                .findFirst()
                                .orElse(null),
                p -> p != null);
    }

    private boolean runs(Map<String, Integer> parallelism) {
        try {
            var state = cluster.runnerState();
            return "RUNNING".equals(state.status())
                    && state.parallelism().entrySet().containsAll(parallelism.entrySet());
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /** The id of the snapshot the runner's {@code container}-th start restored. */
    private long restoredId(int container) throws IOException {
        String log = Files.readString(dir.resolve("runner-" + container + ".log"));
        Matcher m = RESTORED.matcher(log);
        assertThat(m.find()).as("runner %d restored a snapshot: %s", container, log).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static long snapshotId(String path) {
        Matcher m = SNAPSHOT_ID.matcher(path);
        assertThat(m.find()).as("a snapshot id in %s", path).isTrue();
        return Long.parseLong(m.group(1));
    }

    private StreamJob awaitJob(Predicate<StreamJob> check) {
        return RunnerJobHarness.awaitJob(client, check);
    }
}
