package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.SavepointStorage;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.runner.StopAttempts;
import dev.flowscale.policy.sim.ManualClock;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spec change whose stop-with-savepoint keeps failing, with a real runner ({@link LocalKubelet})
 * whose savepoint folder cannot be created (a file stands where ROOT/savepoints should be, so every
 * savepoint fails while periodic checkpoints, in ROOT/checkpoints, go on). The runner counts each
 * failed snapshot (its checkpoints.failed), which is how the test counts stop attempts. The
 * operator runs on a manual clock, stepped to each retry.
 */
class SavepointFailureIT {
    static final String NS = RunnerJobHarness.NS;
    static final List<String> NEW_ARGS = List.of("--rate", "1400", "--cost", "split=sleep:2ms");
    @AutoClose final RunnerClusterFixture cluster = new RunnerClusterFixture();
    final KubernetesClient client = cluster.client;
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T08:00:00Z"));

    @TempDir Path dir;

    @Test
    void aFailingSavepointIsTriedThreeTimesApartThenTheChangeIsAbandonedVisibly()
            throws IOException {
        start(SavepointStorage.SAVEPOINT);
        failThreeStops();

        StreamJob abandoned = awaitJob(j -> j.getStatus().savepointFailure != null);
        assertThat(abandoned.getStatus().savepointFailure.attempts).isEqualTo(3);
        assertThat(abandoned.getStatus().savepointFailure.fallbackCheckpoint).isNull();
        assertThat(abandoned.getStatus().savepointFailure.error).contains("savepoint");
        StreamJob after = awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        assertThat(after.getStatus().pending).isNull();
        assertThat(condition(after))
                .satisfies(
                        c -> {
                            assertThat(c.getStatus()).isEqualTo("True");
                            assertThat(c.getReason()).isEqualTo("ChangeAbandoned");
                            assertThat(c.getMessage()).contains("failed 3 times");
                        });
        assertThat(RunnerJobHarness.args(client)).contains("--rate 1500");
        assertThat(cluster.kubelet.started()).isEqualTo(1);
        Eventually.await(
                "the Event that the change was abandoned",
                () -> RunnerJobHarness.events(client, JobEvents.SAVEPOINT_FAILED),
                events -> events.stream().anyMatch(e -> e.getMessage().contains("abandoned")));

        clock.advance(Duration.ofMinutes(10));
        RunnerJobHarness.poke(client, "later");
        RunnerJobHarness.holdFor(
                Duration.ofSeconds(3),
                () -> cluster.stopRequests() == 3,
                "no attempt after giving up");
    }

    @Test
    void withUpgradeModeLastStateTheChangeGoesOnFromTheLatestCheckpoint() throws IOException {
        start(SavepointStorage.LAST_STATE);
        failThreeStops();
        repairSavepoints(); // so that the new runner can start (it checks its storage at start)

        StreamJob done =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().pending == null
                                        && j.getStatus().savepointFailure != null
                                        && cluster.kubelet.started() >= 2);
        String checkpoint = done.getStatus().savepointFailure.fallbackCheckpoint;
        assertThat(checkpoint).contains("/checkpoints/chk-");
        assertThat(RunnerJobHarness.args(client))
                .contains("--rate 1400")
                .contains("--restore-from " + checkpoint);
        assertThat(condition(done).getReason()).isEqualTo("FellBackToCheckpoint");
        assertThat(condition(done).getMessage()).contains("restored checkpoint " + checkpoint);
        assertThat(RunnerJobHarness.events(client, JobEvents.SAVEPOINT_FAILED))
                .anySatisfy(
                        e ->
                                assertThat(e.getMessage())
                                        .contains("latest checkpoint " + checkpoint));
    }

    @Test
    void aRunnerLostWhileItsStopIsUnansweredIsReplacedFromItsStorageAfterTheRescaleTimeout()
            throws Exception {
        start(SavepointStorage.SAVEPOINT);
        breakSavepoints();
        RunnerJobHarness.editSpec(client, j -> j.getSpec().job.args = NEW_ARGS);
        awaitAttempts(1);
        // The node is cut off after the failed stop: the runner answers nothing (neither RUNNING
        // nor its stop's savepoint), as a pod on a lost node.
        cluster.kubelet.freeze();
        repairSavepoints(); // so that a new runner can take snapshots again

        clock.advance(RunnerJobHarness.MANUAL_CLOCK_RESCALE_TIMEOUT.plusSeconds(1));
        RunnerJobHarness.poke(client, "lost");

        StreamJob done =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().pending == null
                                        && cluster.kubelet.started() >= 2);
        assertThat(done.getStatus().deployedSavepoint).isNull();
        assertThat(RunnerJobHarness.args(client))
                .contains("--rate 1400")
                .as("no savepoint to name: the runner resumes from its storage's newest snapshot")
                .doesNotContain("--restore-from");
        assertThat(RunnerJobHarness.events(client, JobEvents.SAVEPOINT_NOT_FOUND))
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .contains("did not name the savepoint of its stop")
                                        .contains("it does not answer"));
    }

    /**
     * Breaks the savepoint folder, asks for a spec change and steps the clock through the three
     * attempts: each is made only once its backoff passed, and is counted by the runner.
     */
    private void failThreeStops() throws IOException {
        breakSavepoints();
        RunnerJobHarness.editSpec(client, j -> j.getSpec().job.args = NEW_ARGS);

        awaitAttempts(1);
        Condition retrying =
                condition(
                        awaitJob(
                                j ->
                                        Conditions.find(j.getStatus(), StopAttempts.CONDITION)
                                                .map(c -> c.getReason().equals("Retrying"))
                                                .orElse(false)));
        assertThat(retrying.getMessage()).contains("failed 1 of 3 times");
        RunnerJobHarness.holdFor(
                Duration.ofSeconds(3), () -> cluster.stopRequests() == 1, "no attempt before 10 s");
        clock.advance(Duration.ofSeconds(10));
        awaitAttempts(2);
        RunnerJobHarness.holdFor(
                Duration.ofSeconds(2), () -> cluster.stopRequests() == 2, "no attempt before 20 s");
        clock.advance(Duration.ofSeconds(20));
        awaitAttempts(3);
        assertThat(
                        Eventually.await(
                                "an Event per attempt",
                                () -> RunnerJobHarness.events(client, JobEvents.SAVEPOINT_FAILED),
                                events -> events.size() >= 3))
                .anySatisfy(e -> assertThat(e.getMessage()).contains("attempt 1 of 3"));
    }

    /** Waits until the operator made {@code attempts} stop requests and the runner refused them. */
    private void awaitAttempts(int attempts) {
        Eventually.await(
                RunnerJobHarness.WAIT,
                attempts + " failed stop-with-savepoint attempts",
                () -> cluster.stopRequests() + " requests, " + failedSnapshots() + " failed",
                n -> cluster.stopRequests() == attempts && failedSnapshots() >= attempts);
    }

    /** Snapshots the runner failed to take (each failed stop is one). */
    private long failedSnapshots() {
        try {
            var checkpoints = cluster.runnerState().checkpoints();
            return checkpoints == null ? -1 : checkpoints.failed;
        } catch (RuntimeException unreachable) {
            return -1;
        }
    }

    private void start(String upgradeMode) throws IOException {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.OFF, dir.resolve("savepoints"));
        job.getSpec().savepoints.checkpointInterval = "1s";
        job.getSpec().savepoints.upgradeMode = upgradeMode;
        job.getMetadata().setAnnotations(new java.util.HashMap<>());
        cluster.startOnManualClock(dir, clock, job);
        awaitJob(
                j ->
                        j.getStatus().phase == JobPhase.Running
                                && Conditions.isTrue(j.getStatus(), Conditions.READY));
        Eventually.await(
                "a complete checkpoint",
                () -> cluster.runnerState().checkpoints(),
                c -> c != null && c.failed == 0 && completedCheckpoint());
    }

    private boolean completedCheckpoint() {
        try (Stream<Path> chk = Files.list(storage().resolve("checkpoints"))) {
            return chk.anyMatch(p -> Files.exists(p.resolve("_metadata")));
        } catch (IOException e) {
            return false;
        }
    }

    /** A file where the runner creates its savepoints: every savepoint fails, as on a bad disk. */
    private void breakSavepoints() throws IOException {
        Path savepoints = storage().resolve("savepoints");
        if (Files.exists(savepoints)) {
            try (Stream<Path> files = Files.walk(savepoints)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.writeString(savepoints, "not a folder");
    }

    private void repairSavepoints() throws IOException {
        Files.delete(storage().resolve("savepoints"));
    }

    private Path storage() {
        return dir.resolve("savepoints").resolve(NS).resolve("wc");
    }

    private static Condition condition(StreamJob job) {
        return Conditions.find(job.getStatus(), StopAttempts.CONDITION).orElseThrow();
    }

    private StreamJob awaitJob(Predicate<StreamJob> check) {
        return RunnerJobHarness.awaitJob(client, check);
    }
}
