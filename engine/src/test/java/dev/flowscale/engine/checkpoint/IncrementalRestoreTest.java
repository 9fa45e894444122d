package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RocksDB job killed after incremental checkpoints resumes from the newest one, at another
 * parallelism, with exact counts; a damaged or missing shared file stops the restore, named.
 */
class IncrementalRestoreTest {
    private static final long RECORDS = 200_000;
    private static final int KEYS = 1_000;
    private static final RateProfile RATE = RateProfile.constant(80_000);

    @Test
    void countsAreExactAfterAKillAndARescaledRestoreFromAnIncrementalCheckpoint(@TempDir Path dir)
            throws Exception {
        JobGraph graph = graph(2);
        Path latest = killAfterCheckpoints(graph, dir);
        SnapshotMetadata metadata = ManifestFile.read(latest);
        assertThat(metadata.savepoint()).isFalse();
        assertThat(CheckpointStorage.sharedFiles(metadata)).as("incremental").isNotEmpty();

        JobGraph rescaled = graph(3);
        try (RunningJob job = RunningJob.start(rescaled, config(dir), latest)) {
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(30));
            Path finalState = job.stopWithSavepoint(Duration.ofSeconds(30));
            assertThat(CheckpointStorage.sharedFiles(ManifestFile.read(finalState)))
                    .as("a savepoint is self-contained")
                    .isEmpty();
            Map<Object, Long> counts =
                    SnapshotInspector.mergedKeyedState(
                            finalState, rescaled, CountingJob.COUNT, CountingJob.COUNT_STATE);
            assertThat(counts).isEqualTo(CountingJob.expected(RECORDS, KEYS));
        }
    }

    @Test
    void aDamagedSharedFileIsNamedWhenTheCheckpointIsRestored(@TempDir Path dir) throws Exception {
        JobGraph graph = graph(2);
        Path latest = killAfterCheckpoints(graph, dir);
        RocksDbFile sst = firstSharedFile(latest);
        Path file = CheckpointStorage.sharedDirOf(latest).resolve(sst.file());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {0x5A}), sst.bytes() / 2);
        }

        assertThatThrownBy(() -> RunningJob.start(graph, config(dir), latest).close())
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("is corrupt: shared file " + file)
                .hasMessageContaining("SHA-256 " + sst.sha256());
    }

    @Test
    void aMissingSharedFileIsNamedWhenTheCheckpointIsRestored(@TempDir Path dir) throws Exception {
        JobGraph graph = graph(2);
        Path latest = killAfterCheckpoints(graph, dir);
        Path file = CheckpointStorage.sharedDirOf(latest).resolve(firstSharedFile(latest).file());
        Files.delete(file);

        assertThatThrownBy(() -> RunningJob.start(graph, config(dir), latest).close())
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("is incomplete: shared file " + file)
                .hasMessageContaining("is missing");
    }

    @Test
    void aResealedManifestNamingASharedFileOutsideStorageIsRefused(@TempDir Path dir)
            throws Exception {
        JobGraph graph = graph(2);
        Path latest = killAfterCheckpoints(graph, dir);
        SnapshotFiles.editManifest(
                latest,
                true,
                m -> {
                    ObjectNode file =
                            (ObjectNode)
                                    SnapshotFiles.instances(m, CountingJob.COUNT)
                                            .get(0)
                                            .path("rocksDb")
                                            .path("files")
                                            .get(0);
                    file.put("file", "../../_epoch");
                });

        assertThatThrownBy(() -> RunningJob.start(graph, config(dir), latest).close())
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("is corrupt: operator '" + CountingJob.COUNT + "' instance ")
                .hasMessageContaining("unsafe name")
                .hasMessageContaining("file=../../_epoch");
    }

    /** Runs the job through two checkpoints taken while it runs, then cancels it (a kill). */
    private static Path killAfterCheckpoints(JobGraph graph, Path dir) throws Exception {
        try (RunningJob job = RunningJob.start(graph, config(dir))) {
            job.triggerCheckpoint().get(30, TimeUnit.SECONDS);
            Path second = job.triggerCheckpoint().get(30, TimeUnit.SECONDS);
            job.cancel();
            return second;
        }
    }

    private static RocksDbFile firstSharedFile(Path checkpoint) {
        return ManifestFile.read(checkpoint).operator(CountingJob.COUNT).instances().stream()
                .flatMap(h -> h.rocksDb().files().stream())
                .filter(RocksDbFile::shared)
                .findFirst()
                .orElseThrow();
    }

    private static JobGraph graph(int counters) {
        return CountingJob.graph(RATE, RECORDS, KEYS, Map.of(CountingJob.COUNT, counters), x -> x);
    }

    private static JobConfig config(Path dir) {
        return JobConfig.defaults()
                .withStateBackend(StateBackendConfig.rocksDb())
                .withBatchSize(128)
                .withCheckpointing(CheckpointConfig.every(Duration.ofHours(1), dir));
    }
}
