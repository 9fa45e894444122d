package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner resumes from the newest snapshot it can find; retention keeps N of each kind and the one
 * in use.
 */
class RecoveryAndRetentionTest {
    private static final JobGraph GRAPH =
            CountingJob.graph(RateProfile.constant(20_000), 1_000_000, 50, Map.of(), x -> x);
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static JobConfig config(Path dir, String at) {
        return JobConfig.defaults()
                .withClock(Clock.fixed(Instant.parse(at), ZoneOffset.UTC))
                .withCheckpointing(CheckpointConfig.savepointsOnly(dir).withRetained(2));
    }

    @Test
    void retentionKeepsTheNewestTwoOfEachKindAndTheSnapshotRestoredFrom(@TempDir Path dir)
            throws Exception {
        List<Path> savepoints = new ArrayList<>();
        List<Path> checkpoints = new ArrayList<>();
        try (RunningJob job = RunningJob.start(GRAPH, config(dir, "2026-12-01T01:00:00Z"))) {
            for (int i = 0; i < 3; i++) {
                savepoints.add(job.triggerSavepoint().get(20, TimeUnit.SECONDS));
                checkpoints.add(job.triggerCheckpoint().get(20, TimeUnit.SECONDS));
            }
            // A checkpoint is reported before its retention runs: wait for that retention.
            awaitSnapshots(dir, 4);
            assertThat(new CheckpointStorage(dir).completedSnapshots())
                    .containsExactly(
                            checkpoints.get(2),
                            savepoints.get(2),
                            checkpoints.get(1),
                            savepoints.get(1));
            savepoints.add(job.stopWithSavepoint(WAIT));
        }
        try (RunningJob job =
                RunningJob.start(GRAPH, config(dir, "2026-12-01T02:00:00Z"), savepoints.get(2))) {
            Path fifth = job.triggerSavepoint().get(20, TimeUnit.SECONDS);
            Path sixth = job.triggerSavepoint().get(20, TimeUnit.SECONDS);
            assertThat(new CheckpointStorage(dir).completedSnapshots())
                    .as("the earlier run's snapshots stay; this run keeps its newest two")
                    .containsExactly(
                            sixth,
                            fifth,
                            savepoints.get(3),
                            checkpoints.get(2),
                            savepoints.get(2),
                            checkpoints.get(1));
        }
    }

    private static void awaitSnapshots(Path dir, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (new CheckpointStorage(dir).completedSnapshots().size() > count
                && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    @Test
    void aRunnerPrefersANewerSnapshotInItsStorageToTheOneItWasAskedFor(@TempDir Path dir)
            throws Exception {
        Path requested = savepointIn(dir.resolve("elsewhere"), "2026-12-01T01:00:00Z");
        Path stored = savepointIn(dir.resolve("own"), "2026-12-01T02:00:00Z");
        List<String> log = new ArrayList<>();
        try (RunningJob job =
                RunningJob.recover(
                        GRAPH,
                        config(dir.resolve("own"), "2026-12-01T03:00:00Z"),
                        requested,
                        log::add)) {
            assertThat(log)
                    .singleElement()
                    .asString()
                    .contains("restoring savepoint")
                    .contains(stored.toString())
                    .contains("instead of the requested " + requested)
                    .contains("the storage holds a newer complete snapshot");
            job.cancel();
        }
    }

    @Test
    void aRunnerTakesTheRequestedSnapshotWhenItIsNewerThanItsStorage(@TempDir Path dir)
            throws Exception {
        savepointIn(dir.resolve("own"), "2026-12-01T01:00:00Z");
        Path requested = savepointIn(dir.resolve("elsewhere"), "2026-12-01T02:00:00Z");
        List<String> log = new ArrayList<>();
        try (RunningJob job =
                RunningJob.recover(
                        GRAPH,
                        config(dir.resolve("own"), "2026-12-01T03:00:00Z"),
                        requested,
                        log::add)) {
            assertThat(log)
                    .singleElement()
                    .asString()
                    .contains("restoring the requested snapshot " + requested)
                    .contains("2026-12-01T02:00:00Z");
            job.cancel();
        }
    }

    @Test
    void aRequestedSnapshotThatRetentionDeletedGivesWayToTheNewestInStorage(@TempDir Path dir)
            throws Exception {
        Path stored = savepointIn(dir.resolve("own"), "2026-12-01T01:00:00Z");
        Path deleted = dir.resolve("own").resolve("savepoints").resolve("savepoint-0-1");
        List<String> log = new ArrayList<>();
        try (RunningJob job =
                RunningJob.recover(
                        GRAPH,
                        config(dir.resolve("own"), "2026-12-01T03:00:00Z"),
                        deleted,
                        log::add)) {
            assertThat(log)
                    .singleElement()
                    .asString()
                    .contains("restoring savepoint")
                    .contains(stored.toString())
                    .contains("instead of the requested " + deleted + ", which cannot be restored")
                    .contains("_metadata is missing");
            job.cancel();
        }
    }

    @Test
    void storageWhoseSnapshotsNoneRestoresIsRefusedNamingTheFlagThatStartsFresh(@TempDir Path dir)
            throws Exception {
        Path stored = savepointIn(dir, "2026-12-01T01:00:00Z");
        try (var files = Files.list(stored)) {
            Files.delete(files.filter(f -> f.toString().endsWith(".state")).findFirst().get());
        }
        List<String> log = new ArrayList<>();
        assertThatThrownBy(
                        () ->
                                RunningJob.recover(
                                        GRAPH, config(dir, "2026-12-01T03:00:00Z"), null, log::add))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("holds 1 complete snapshot(s) and none restores")
                .hasMessageContaining("pass --start-fresh");
        assertThat(log).singleElement().asString().startsWith("skipping snapshot " + stored);
        assertThat(stored.resolve(SnapshotMetadata.FILE_NAME)).exists();
    }

    private static Path savepointIn(Path storage, String at) throws Exception {
        try (RunningJob job = RunningJob.start(GRAPH, config(storage, at))) {
            assertThat(job.awaitRunning(WAIT)).isTrue();
            return job.stopWithSavepoint(WAIT);
        }
    }
}
