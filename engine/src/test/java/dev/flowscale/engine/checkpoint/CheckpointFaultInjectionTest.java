package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runner.RunnerViews;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RestartStrategy;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.runner.api.CheckpointStatus;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint storage that stops being writable mid-run (issue 14 item 1): every failure is counted,
 * shown and logged, checkpoints resume on schedule when the storage is back, and too many failures
 * in a row fail the job over. Counts stay exact throughout.
 */
class CheckpointFaultInjectionTest {
    private static final long RECORDS = 120_000;
    private static final int KEYS = 200;
    private static final JobGraph GRAPH =
            CountingJob.graph(
                    RateProfile.constant(40_000),
                    RECORDS,
                    KEYS,
                    Map.of(CountingJob.COUNT, 2),
                    x -> x);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void checkpointsResumeWhenStorageIsWritableAgainAndTheFailuresAreVisible(@TempDir Path dir)
            throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withMeterRegistry(registry)
                        .withCheckpointing(
                                CheckpointConfig.every(Duration.ofMillis(50), dir)
                                        .withFailureTolerance(Duration.ofHours(1)));
        try (RunningJob job = RunningJob.start(GRAPH, config)) {
            await(job, s -> s.completed() >= 2, "two checkpoints completed");
            Path aside = breakStorage(dir);
            CheckpointStatus failing =
                    await(job, s -> s.consecutiveFailures() >= 3, "three checkpoints failed");
            assertThat(failing.lastFailure())
                    .contains("cannot create snapshot directory")
                    .contains("chk-");
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
            assertThat(
                            registry.get("flowscale.checkpoints.failed")
                                    .tag("job", "counting")
                                    .functionCounter()
                                    .count())
                    .isGreaterThanOrEqualTo(3);
            JsonNode view = new ObjectMapper().valueToTree(RunnerViews.job(job, "run"));
            assertThat(view.path("checkpoints").path("consecutiveFailures").asInt())
                    .isGreaterThanOrEqualTo(3);
            assertThat(view.path("checkpoints").path("lastFailure").asText())
                    .contains("cannot create snapshot directory");

            repairStorage(dir, aside);
            long before = failing.completed();
            CheckpointStatus resumed =
                    await(
                            job,
                            s -> s.completed() > before && s.consecutiveFailures() == 0,
                            "checkpoints resumed");
            assertThat(Path.of(resumed.lastCompletedPath())).exists();
            assertThat(registry.get("flowscale.checkpoint.last.completed.age").gauge().value())
                    .isGreaterThanOrEqualTo(0);
            assertFinalCountsExact(job);
        }
    }

    @Test
    void tooManyFailuresInARowFailTheJobOverAndItResumesFromItsLatestCheckpoint(@TempDir Path dir)
            throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withCheckpointing(
                                CheckpointConfig.every(Duration.ofMillis(50), dir)
                                        .withFailureTolerance(Duration.ofMillis(50)))
                        .withRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofSeconds(1)));
        try (RunningJob job = RunningJob.start(GRAPH, config)) {
            await(job, s -> s.completed() >= 2, "two checkpoints completed");
            Path aside = breakStorage(dir);
            Await.until(WAIT, "the job to fail over", () -> job.restarts() > 0);
            repairStorage(
                    dir, aside); // within the restart delay, so the restart finds its checkpoint
            await(
                    job,
                    s -> s.consecutiveFailures() == 0 && job.status() == RunningJob.Status.RUNNING,
                    "the restarted job checkpoints again");
            assertThat(job.restarts()).isEqualTo(1);
            assertFinalCountsExact(job);
        }
    }

    @Test
    void withoutARestartStrategyTooManyFailuresFailTheJobWithTheCause(@TempDir Path dir)
            throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withCheckpointing(
                                CheckpointConfig.every(Duration.ofMillis(50), dir)
                                        .withFailureTolerance(Duration.ofMillis(100)));
        try (RunningJob job = RunningJob.start(GRAPH, config)) {
            await(job, s -> s.completed() >= 1, "a checkpoint completed");
            breakStorage(dir);
            assertThatThrownBy(() -> job.await(WAIT))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("periodic checkpoints failed for")
                    .hasMessageContaining("longer than the 100 ms tolerated")
                    .hasMessageContaining("cannot create snapshot directory");
        }
    }

    @Test
    void aTwoSecondStorageFaultAtAOneSecondIntervalIsSurvivedWithTheDefaults(@TempDir Path dir)
            throws Exception {
        JobGraph slow =
                CountingJob.graph(
                        RateProfile.constant(10_000),
                        RECORDS,
                        KEYS,
                        Map.of(CountingJob.COUNT, 2),
                        x -> x);
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.every(Duration.ofSeconds(1), dir));
        try (RunningJob job = RunningJob.start(slow, config)) {
            CheckpointStatus before = await(job, s -> s.completed() >= 1, "a checkpoint");
            Path aside = breakStorage(dir);
            await(job, s -> s.consecutiveFailures() >= 3, "three failures in a row (2 s apart)");
            repairStorage(dir, aside);
            await(
                    job,
                    s -> s.completed() > before.completed() && s.consecutiveFailures() == 0,
                    "checkpoints resumed");
            assertThat(job.restarts()).as("no fail-over").isZero();
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
            assertFinalCountsExact(job);
        }
    }

    /**
     * Puts a plain file where the checkpoint folder was: no checkpoint directory can be created.
     */
    private static Path breakStorage(Path dir) throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        Path aside = dir.resolve("checkpoints.aside");
        Files.move(checkpoints, aside);
        Files.createFile(checkpoints);
        return aside;
    }

    private static void repairStorage(Path dir, Path aside) throws IOException {
        Files.delete(dir.resolve("checkpoints"));
        Files.move(aside, dir.resolve("checkpoints"));
    }

    private static CheckpointStatus await(
            RunningJob job, Predicate<CheckpointStatus> condition, String what) {
        return Await.until(WAIT, what, job::checkpointStatus, condition);
    }

    private static void assertFinalCountsExact(RunningJob job) throws Exception {
        CountingJob.awaitQuiescence(job, WAIT);
        Path finalState = job.stopWithSavepoint(WAIT);
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                finalState,
                                job.graph(),
                                CountingJob.COUNT,
                                CountingJob.COUNT_STATE))
                .isEqualTo(CountingJob.expected(RECORDS, KEYS));
    }
}
