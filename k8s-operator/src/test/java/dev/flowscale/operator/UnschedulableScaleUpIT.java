package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.BlockedRescale;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.runner.ScaleUpBackoff;
import dev.flowscale.policy.sim.ManualClock;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scale-up whose new pod the scheduler cannot place (PodScheduled False, reason Unschedulable,
 * "0/3 nodes are available: 3 Insufficient cpu.", as a real API server reports it) is rolled back
 * from the same savepoint at once and tried again only after a backoff that doubles. The operator
 * runs on a manual clock that the test steps; everything else (the API server, the runner process,
 * the pod life cycle played by {@link LocalKubelet} and {@link LocalScheduler}) runs in real time.
 * The nodes have 1500m CPU free: the runner at split=1,count=1 (2 slots of 500m) fits, at split=4
 * (5 slots) it does not. The scale-up is recorded in status as the autoscaler records one.
 */
class UnschedulableScaleUpIT {
    static final String NS = RunnerJobHarness.NS;
    static final Map<String, Integer> BIG = Map.of("split", 4);
    @AutoClose final RunnerClusterFixture cluster = new RunnerClusterFixture();
    final KubernetesClient client = cluster.client;
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T08:00:00Z"));

    @TempDir Path dir;

    @Test
    void anUnschedulableScaleUpIsRolledBackAtOnceAndRetriedOnlyAfterABackoffThatDoubles()
            throws IOException {
        start();
        StreamJob running = awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        List<Duration> spacing = new ArrayList<>();

        askForTheScaleUp();
        BlockedRescale first = awaitBlocked(1);
        assertThat(first.reason).isEqualTo("Unschedulable");
        assertThat(first.message).contains("0/3 nodes are available: 3 Insufficient cpu.");
        spacing.add(
                Duration.between(Instant.parse(first.lastAttempt), Instant.parse(first.nextRetry)));
        StreamJob blocked = awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        assertThat(blocked.getStatus().parallelism).containsEntry("split", 1);
        assertThat(blocked.getStatus().lastRescale.succeeded).isFalse();
        assertThat(blocked.getStatus().lastRescale.message)
                .contains("could not be scheduled")
                .contains("from the same savepoint " + blocked.getStatus().lastSavepoint);
        assertThat(args())
                .contains("--parallelism count=1,split=1")
                .contains("--restore-from " + blocked.getStatus().lastSavepoint);
        assertThat(
                        Conditions.find(blocked.getStatus(), Conditions.SCALING)
                                .orElseThrow()
                                .getReason())
                .isEqualTo(ScaleUpBackoff.REASON);
        Eventually.await(
                "a ScalingBlocked Event",
                () -> RunnerJobHarness.events(client, JobEvents.SCALING_BLOCKED),
                events -> !events.isEmpty()); // sent just after the status write

        BlockedRescale second = retryAfter(spacing.get(0));
        spacing.add(
                Duration.between(
                        Instant.parse(second.lastAttempt), Instant.parse(second.nextRetry)));
        BlockedRescale third = retryAfter(spacing.get(1));
        spacing.add(
                Duration.between(Instant.parse(third.lastAttempt), Instant.parse(third.nextRetry)));

        assertThat(spacing)
                .containsExactly(
                        Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(4));
        assertThat(cluster.kubelet.restarts()).isZero();
        assertThat(running.getStatus().observedGeneration).isEqualTo(1L);
    }

    @Test
    void aNewParallelismWhileBlockedIsTriedAtOnce() throws IOException {
        start();
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        askForTheScaleUp();
        awaitBlocked(1);
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);

        StreamJobs.editStatus(
                client, NS, "wc", st -> st.desiredParallelism.put("split", 2)); // the load changed

        StreamJob done =
                awaitJob(
                        j ->
                                j.getStatus().lastRescale != null
                                        && j.getStatus().lastRescale.succeeded);
        assertThat(done.getStatus().parallelism).containsEntry("split", 2);
        assertThat(done.getStatus().blockedScaleUp).isNull();
    }

    /**
     * Steps the clock to just before the retry is due and makes the operator look (a pass on an
     * annotation change): no new attempt; then past it: the attempt is made, fails the same way and
     * is recorded as the next one.
     */
    private BlockedRescale retryAfter(Duration backoff) {
        int attempts = blockedScaleUp().attempts;
        awaitJob(j -> j.getStatus().phase == JobPhase.Running && j.getStatus().pending == null);
        int podsBefore = cluster.kubelet.started();
        String argsBefore = args();
        clock.advance(backoff.minusSeconds(1));
        RunnerJobHarness.poke(client, "early-" + attempts);
        RunnerJobHarness.holdFor(
                Duration.ofSeconds(3),
                () -> args().equals(argsBefore) && job().getStatus().pending == null,
                "no attempt before the backoff passed");
        assertThat(blockedScaleUp().attempts).isEqualTo(attempts);
        assertThat(cluster.kubelet.started()).isEqualTo(podsBefore);

        clock.advance(Duration.ofSeconds(2));
        RunnerJobHarness.poke(client, "due-" + attempts);
        return awaitBlocked(attempts + 1);
    }

    private void askForTheScaleUp() {
        StreamJobs.editStatus(client, NS, "wc", st -> st.desiredParallelism.putAll(BIG));
    }

    private BlockedRescale awaitBlocked(int attempts) {
        return awaitJob(
                        j ->
                                j.getStatus().blockedScaleUp != null
                                        && j.getStatus().blockedScaleUp.attempts == attempts
                                        && j.getStatus().pending == null)
                .getStatus()
                .blockedScaleUp;
    }

    private BlockedRescale blockedScaleUp() {
        return job().getStatus().blockedScaleUp;
    }

    private void start() throws IOException {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.OFF, dir.resolve("savepoints"));
        job.getSpec().rescaling.retryBackoff = "1m";
        job.getSpec().rescaling.maxRetryBackoff = "30m";
        job.getMetadata().setAnnotations(new java.util.HashMap<>());
        cluster.start(
                dir,
                UnschedulableScaleUpIT::fitsTheNodes,
                "1500m",
                "1500m",
                RunnerJobHarness.MANUAL_CLOCK_RESCALE_TIMEOUT,
                clock,
                job);
    }

    /** The kubelet starts only what the scheduler placed: at most 3 slots of 500m. */
    static boolean fitsTheNodes(List<String> args) {
        int at = args.indexOf("--parallelism");
        int slots =
                at < 0
                        ? 1
                        : Arrays.stream(args.get(at + 1).split(","))
                                .mapToInt(kv -> Integer.parseInt(kv.substring(kv.indexOf('=') + 1)))
                                .sum();
        return slots <= 3;
    }

    private StreamJob job() {
        return cluster.job();
    }

    private String args() {
        return RunnerJobHarness.args(client);
    }

    private StreamJob awaitJob(Predicate<StreamJob> check) {
        return RunnerJobHarness.awaitJob(client, check);
    }
}
