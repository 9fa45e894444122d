package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a running job on RocksDB, a checkpoint whose background copy fails is the one that fails, with
 * the copy's reason; the next one completes and references only files that are in storage.
 */
class UploadFailureInAJobTest {
    private static final JobGraph GRAPH =
            CountingJob.graph(
                    RateProfile.constant(40_000),
                    400_000,
                    200,
                    Map.of(CountingJob.COUNT, 2),
                    x -> x);

    @Test
    void aFailedCopyFailsItsCheckpointWithTheReasonAndTheNextOneIsWhole(
            @TempDir Path dir, @TempDir Path local) throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withStateBackend(StateBackendConfig.rocksDb().withLocalDir(local))
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        try (RunningJob job = RunningJob.start(GRAPH, config)) {
            Await.until(
                    Duration.ofSeconds(20),
                    "the counter to hold state",
                    () ->
                            job.metrics().instancesOf(CountingJob.COUNT).stream()
                                            .mapToLong(i -> i.recordsIn())
                                            .sum()
                                    > 2_000);
            Path first = job.triggerCheckpoint().get(30, TimeUnit.SECONDS);
            Path shared = CheckpointStorage.sharedDirOf(first);
            Path aside = Files.move(shared, shared.resolveSibling("shared-aside"));
            Files.writeString(shared, "not a folder");

            assertThatThrownBy(() -> job.triggerCheckpoint().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("declined by")
                    .hasMessageContaining("cannot copy the RocksDB files of store");

            Files.delete(shared);
            Files.move(aside, shared);
            Path third = job.triggerCheckpoint().get(30, TimeUnit.SECONDS);
            assertThat(CheckpointStorage.sharedFiles(ManifestFile.read(third))).isNotEmpty();
            for (var operator : ManifestFile.read(third).operators()) {
                for (TaskStateHandle handle : operator.instances()) {
                    if (handle.rocksDb() == null) {
                        continue;
                    }
                    for (RocksDbFile file : handle.rocksDb().files()) {
                        Path stored =
                                file.shared()
                                        ? shared.resolve(file.file())
                                        : third.resolve(file.file());
                        assertThat(Files.size(stored)).as(file.file()).isEqualTo(file.bytes());
                    }
                }
            }
        }
    }
}
