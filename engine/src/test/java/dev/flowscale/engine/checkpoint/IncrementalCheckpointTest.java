package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.state.FileSums;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.testsupport.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental checkpoints of one RocksDB instance written into real snapshot storage: what they
 * copy, what they reference, and what retention deletes.
 */
class IncrementalCheckpointTest {
    private static final StateDescriptor<String> TEXT = StateDescriptor.value("text", String.class);
    private static final int KEYS = 20_000;

    @TempDir Path local;
    @TempDir Path root;
    private CheckpointStorage storage;
    private KeyedStateBackend backend;
    private ValueState<String> text;

    @BeforeEach
    void openARocksDbInstanceOverAllKeyGroups() {
        storage = new CheckpointStorage(root);
        StateBackendConfig config = StateBackendConfig.rocksDb().withLocalDir(local);
        backend =
                new KeyedStateBackend(
                        "op",
                        128,
                        new KeyGroupRange(0, 127),
                        RocksDbKeyedStore.open(config, "op-0"));
        text = KeyedStates.value(backend, backend.table(TEXT));
    }

    @AfterEach
    void closeTheBackend() {
        backend.close();
    }

    @Test
    void aSecondCheckpointAfterASmallChangeCopiesOnlyTheNewFiles() throws Exception {
        write(0, KEYS, "first");
        SnapshotMetadata first = ManifestFile.read(checkpoint(1));
        write(0, 10, "second");
        SnapshotMetadata second = ManifestFile.read(checkpoint(2));

        Set<String> before = CheckpointStorage.sharedFiles(first);
        Set<String> after = CheckpointStorage.sharedFiles(second);
        long firstBytes = sharedBytes(first, Set.of());
        long newBytes = sharedBytes(second, before);
        assertThat(after).as("the second references every file of the first").containsAll(before);
        assertThat(after.size()).as("and adds the flushed change").isGreaterThan(before.size());
        assertThat(newBytes)
                .as("bytes copied by the second")
                .isPositive()
                .isLessThan(firstBytes / 20);
        assertThat(listShared()).as("the shared folder holds each file once").isEqualTo(after);
    }

    @Test
    void aStoreCopiedForAHandOverCopiesOnlyItsNewFilesAtItsFirstCheckpoint() throws Exception {
        write(0, KEYS, "first");
        SnapshotMetadata first = ManifestFile.read(checkpoint(1));
        KeyedStateBackend stopped = backend;
        backend =
                new KeyedStateBackend(
                        "op",
                        128,
                        new KeyGroupRange(0, 127),
                        stopped.store()
                                .checkpoints()
                                .copy(StateBackendConfig.rocksDb().withLocalDir(local), "op-1"));
        text = KeyedStates.value(backend, backend.table(TEXT));
        stopped.close();
        write(0, 10, "second");
        SnapshotMetadata second = ManifestFile.read(checkpoint(2));

        Set<String> before = CheckpointStorage.sharedFiles(first);
        assertThat(CheckpointStorage.sharedFiles(second))
                .as(
                        "the copy's first checkpoint references the files it shares with the stopped store")
                .containsAll(before);
        assertThat(sharedBytes(second, before))
                .as("bytes copied by the copy's first checkpoint")
                .isPositive()
                .isLessThan(sharedBytes(first, Set.of()) / 20);
    }

    @Test
    void retentionDeletesASharedFileOnlyWhenNoRetainedCheckpointReferencesIt() throws Exception {
        write(0, KEYS, "first");
        Set<String> first = CheckpointStorage.sharedFiles(ManifestFile.read(checkpoint(1)));
        write(0, 10, "second");
        checkpoint(2);
        backend.store().compact();
        Set<String> third = CheckpointStorage.sharedFiles(ManifestFile.read(checkpoint(3)));
        assertThat(third).as("compaction rewrote the files").doesNotContainAnyElementsOf(first);

        storage.retain(2, 3, Set.of());
        assertThat(listShared())
                .as("checkpoint 1 is gone but checkpoint 2 still references its files")
                .containsAll(first)
                .containsAll(third);

        storage.retain(1, 3, Set.of());
        assertThat(listShared()).as("only checkpoint 3's files remain").isEqualTo(third);
    }

    @Test
    void sstFilesOnTheStoresFileSystemAreHardLinkedIntoStorageInsteadOfCopied() throws Exception {
        write(0, KEYS, "first");
        Set<String> shared = CheckpointStorage.sharedFiles(ManifestFile.read(checkpoint(1)));
        assertThat(shared).isNotEmpty();
        for (String file : shared) {
            assertThat(Files.getAttribute(root.resolve("shared").resolve(file), "unix:nlink"))
                    .as("names of %s: the store's SST file and storage's", file)
                    .isEqualTo(2);
        }
    }

    @Test
    void theSumsOfEachSstFileAreMeasuredInTheBackgroundOnceRocksDbHasWrittenIt() throws Exception {
        write(0, KEYS, "first");
        SnapshotMetadata first = ManifestFile.read(checkpoint(1));
        for (RocksDbFile file : first.operators().get(0).instances().get(0).rocksDb().files()) {
            if (!file.shared()) {
                continue;
            }
            FileSums.Sums ready =
                    Await.value(
                            Duration.ofSeconds(30),
                            "the background sums of " + file.name(),
                            () ->
                                    Optional.ofNullable(
                                            backend.store()
                                                    .checkpoints()
                                                    .sumsOf(file.name(), file.bytes())));
            assertThat(ready)
                    .isEqualTo(new FileSums.Sums(file.bytes(), file.crc32(), file.sha256()))
                    .isEqualTo(FileSums.of(root.resolve("shared").resolve(file.file())));
        }
        assertThat(backend.store().checkpoints().sumsOf("999999.sst", 1))
                .as("a file never written")
                .isNull();
    }

    @Test
    void theManifestRecordsLengthCrcAndSha256OfEveryRocksDbFile() throws Exception {
        write(0, 1_000, "x");
        Path dir = checkpoint(1);
        TaskStateHandle handle = ManifestFile.read(dir).operators().get(0).instances().get(0);
        assertThat(handle.rocksDb().states()).containsEntry("text", StateDescriptor.Kind.VALUE);
        assertThat(handle.rocksDb().files())
                .as("SST files shared, descriptor files in the checkpoint's own folder")
                .anyMatch(RocksDbFile::shared)
                .anyMatch(f -> !f.shared() && Files.isRegularFile(dir.resolve(f.file())));
        for (RocksDbFile file : handle.rocksDb().files()) {
            Path stored =
                    file.shared()
                            ? root.resolve("shared").resolve(file.file())
                            : dir.resolve(file.file());
            FileSums.Sums sums = FileCopy.copy(stored, local.resolve("copy-" + file.name()));
            assertThat(sums)
                    .isEqualTo(new FileSums.Sums(file.bytes(), file.crc32(), file.sha256()));
        }
    }

    private void write(int from, int to, String prefix) {
        for (long key = from; key < to; key++) {
            backend.setCurrentKey(key);
            text.update(prefix + "-" + key + "-".repeat(60));
        }
    }

    private Path checkpoint(long id) throws IOException {
        Path dir = storage.create(id, false);
        TaskStateHandle handle =
                IncrementalCheckpoint.start(
                                dir,
                                new SnapshotIdentity("job", id),
                                false,
                                "op",
                                0,
                                backend,
                                null,
                                null)
                        .join();
        SnapshotMetadata metadata =
                new SnapshotMetadata(
                        SnapshotMetadata.FORMAT_VERSION,
                        "job",
                        id,
                        "CHECKPOINT",
                        0,
                        128,
                        0,
                        List.of(new SnapshotMetadata.OperatorEntry("op", 1, List.of(handle))),
                        null,
                        null);
        ManifestFile.write(dir, metadata, () -> {});
        return dir;
    }

    private static long sharedBytes(SnapshotMetadata metadata, Set<String> except) {
        return metadata.operators().get(0).instances().get(0).rocksDb().files().stream()
                .filter(f -> f.shared() && !except.contains(f.file()))
                .mapToLong(RocksDbFile::bytes)
                .sum();
    }

    private Set<String> listShared() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("shared"))) {
            return new HashSet<>(files.map(f -> f.getFileName().toString()).toList());
        }
    }
}
