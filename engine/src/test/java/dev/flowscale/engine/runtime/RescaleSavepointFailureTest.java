package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.testsupport.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rescale reports success only once its savepoint is durable: when the savepoint's files cannot
 * be written (its folder replaced by a file while the job is down) the rescale rolls back, says so,
 * and the job keeps running at its old parallelism with exact counts.
 */
class RescaleSavepointFailureTest {
    private static final long RECORDS = 60_000;
    private static final int KEYS = 500;

    private static JobGraph graph() {
        return CountingJob.graph(
                RateProfile.constant(15_000), RECORDS, KEYS, Map.of(CountingJob.COUNT, 2), x -> x);
    }

    @Test
    void aRescaleWhoseSavepointCannotBeWrittenRollsBackAndSaysSo(@TempDir Path dir)
            throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(64)
                        .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(200), dir));
        try (RunningJob job = RunningJob.start(graph(), config)) {
            Await.until(
                    Duration.ofSeconds(20),
                    "a periodic checkpoint to complete",
                    () -> new CheckpointStorage(dir).latestCheckpoint().isPresent());
            // The job stays down for a while after its barrier: long enough to break the folder
            // its savepoint is about to be written into.
            CompletableFuture<RescaleView> rescale =
                    CompletableFuture.supplyAsync(() -> rescale(job));
            Path savepoint = awaitSavepointFolder(dir.resolve("savepoints"));
            replaceWithFile(savepoint);

            assertThatThrownBy(() -> rescale.get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(SnapshotException.class)
                    .hasMessageContaining("rolled back: its savepoint was not written")
                    .hasMessageContaining("latest complete snapshot");
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
            assertThat(job.graph().operator(CountingJob.COUNT).parallelism()).isEqualTo(2);
            assertThat(CountingJob.finalCounts(job, Duration.ofSeconds(60)))
                    .isEqualTo(CountingJob.expected(RECORDS, KEYS));
        }
    }

    private static RescaleView rescale(RunningJob job) {
        try {
            return job.rescale(
                    Map.of(CountingJob.COUNT, 3), Duration.ofSeconds(30), Duration.ofSeconds(3));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path awaitSavepointFolder(Path savepoints) {
        Path[] found = new Path[1];
        Await.until(
                Duration.ofSeconds(20),
                "the rescale's savepoint folder to be created",
                () -> {
                    found[0] = firstSavepoint(savepoints).orElse(null);
                    return found[0] != null;
                });
        return found[0];
    }

    private static Optional<Path> firstSavepoint(Path savepoints) {
        if (!Files.isDirectory(savepoints)) {
            return Optional.empty();
        }
        try (Stream<Path> listed = Files.list(savepoints)) {
            return listed.filter(Files::isDirectory).findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void replaceWithFile(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(folder);
        Files.writeString(folder, "not a folder");
    }
}
