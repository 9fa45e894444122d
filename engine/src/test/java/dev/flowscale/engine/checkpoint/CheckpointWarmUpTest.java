package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.state.StateCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up runs the manifest codec both ways over every kind of entry, and a RocksDB checkpoint
 * that leaves nothing behind.
 */
class CheckpointWarmUpTest {
    @TempDir Path local;

    @Test
    void theWarmUpManifestDecodesToWhatWasEncoded() {
        SnapshotMetadata sample = CheckpointWarmUp.sample();
        SnapshotMetadata decoded = CheckpointWarmUp.roundTrip();
        assertThat(decoded.operators()).isEqualTo(sample.operators());
        assertThat(decoded.operators().get(0).instances().get(1).rocksDb().files()).hasSize(2);
        assertThat(decoded.checksum()).isNotBlank();
    }

    @Test
    void theChecksumWrittenInOnePassIsTheOneAReaderComputes() throws Exception {
        JsonNode read = StateCodec.json().readTree(ManifestFile.encode(CheckpointWarmUp.sample()));
        assertThat(read.get(ManifestFile.CHECKSUM).asText())
                .isEqualTo(ManifestFile.checksum(read))
                .hasSize(64);
    }

    /** Static typing must not change the JSON: a checkpoint's own lists are array lists. */
    @Test
    void aManifestOfOtherCollectionClassesEncodesToTheSameBytes() throws Exception {
        SnapshotMetadata sample = CheckpointWarmUp.sample();
        List<SnapshotMetadata.OperatorEntry> operators = new ArrayList<>();
        for (SnapshotMetadata.OperatorEntry op : sample.operators()) {
            List<TaskStateHandle> instances = new ArrayList<>();
            for (TaskStateHandle h : op.instances()) {
                RocksDbSnapshot r = h.rocksDb();
                instances.add(
                        r == null
                                ? h
                                : new TaskStateHandle(
                                        h.operatorId(),
                                        h.instance(),
                                        h.file(),
                                        h.bytes(),
                                        h.crc32(),
                                        h.keyGroupStart(),
                                        h.keyGroupEnd(),
                                        h.splits(),
                                        new RocksDbSnapshot(
                                                r.store(),
                                                new LinkedHashMap<>(r.states()),
                                                new ArrayList<RocksDbFile>(r.files()))));
            }
            operators.add(new SnapshotMetadata.OperatorEntry(op.id(), op.parallelism(), instances));
        }
        SnapshotMetadata copied =
                new SnapshotMetadata(
                        sample.formatVersion(),
                        sample.jobName(),
                        sample.checkpointId(),
                        sample.type(),
                        sample.createdAtEpochMillis(),
                        sample.keyGroups(),
                        sample.epoch(),
                        operators,
                        null,
                        null);
        assertThat(new String(ManifestFile.encode(copied)))
                .isEqualTo(new String(ManifestFile.encode(sample)))
                .isEqualTo(
                        StateCodec.json()
                                .writerWithDefaultPrettyPrinter()
                                .writeValueAsString(
                                        copied.withChecksum(
                                                StateCodec.json()
                                                        .readTree(ManifestFile.encode(sample))
                                                        .get(ManifestFile.CHECKSUM)
                                                        .asText())));
    }

    @Test
    void theRocksDbWarmUpTakesARealCheckpointAndLeavesNothingBehind() throws Exception {
        StateBackendConfig backend = StateBackendConfig.rocksDb().withLocalDir(local);
        TaskStateHandle handle = CheckpointWarmUp.rocksDbCheckpoint(backend);
        assertThat(handle.rocksDb().files())
                .as("the entry was flushed into an SST file and linked into shared storage")
                .anyMatch(f -> f.shared() && f.name().endsWith(".sst") && f.bytes() > 0);
        try (Stream<Path> left = Files.list(RocksDbKeyedStore.localParent(backend))) {
            assertThat(left.filter(Files::isDirectory))
                    .as("store, its checkpoint folder and the snapshot deleted")
                    .isEmpty();
        }
    }
}
