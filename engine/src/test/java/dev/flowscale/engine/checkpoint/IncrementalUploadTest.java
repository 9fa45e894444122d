package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import dev.flowscale.engine.state.RocksDbBackends;
import dev.flowscale.engine.state.RocksDbFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An incremental checkpoint takes its RocksDB checkpoint at the barrier and copies the files on the
 * store's uploader thread: it completes when the copy is done, and a failed copy fails it.
 */
class IncrementalUploadTest {
    private static final StateDescriptor<String> TEXT = StateDescriptor.value("text", String.class);

    @TempDir Path local;
    @TempDir Path root;
    private CheckpointStorage storage;
    private KeyedStateBackend backend;
    private final CountDownLatch gate = new CountDownLatch(1);

    @BeforeEach
    void openARocksDbInstanceWithState() {
        storage = new CheckpointStorage(root);
        backend = RocksDbBackends.overAllKeyGroups(local, "op-0");
        ValueState<String> text = KeyedStates.value(backend, backend.table(TEXT));
        for (long key = 0; key < 2_000; key++) {
            backend.setCurrentKey(key);
            text.update("value-" + key);
        }
    }

    @AfterEach
    void closeTheBackend() {
        gate.countDown();
        backend.close();
    }

    @Test
    void theCheckpointReturnsAtTheBarrierAndCompletesWhenItsFilesAreCopied() throws Exception {
        holdTheUploader();
        Path dir = storage.create(1, false);
        CompletableFuture<TaskStateHandle> handle = start(dir);

        assertThat(handle).as("waits for the uploader").isNotDone();
        assertThat(Files.exists(CheckpointStorage.sharedDirOf(dir))).isFalse();

        gate.countDown();
        TaskStateHandle done = handle.get(30, TimeUnit.SECONDS);
        Set<String> shared = new HashSet<>();
        for (RocksDbFile file : done.rocksDb().files()) {
            Path stored =
                    file.shared()
                            ? CheckpointStorage.sharedDirOf(dir).resolve(file.file())
                            : dir.resolve(file.file());
            assertThat(Files.size(stored)).isEqualTo(file.bytes());
            if (file.shared()) {
                shared.add(file.file());
            }
        }
        assertThat(shared).isNotEmpty();
        assertThat(checkpointFolders()).as("the hard-linked folder is deleted").isEmpty();
    }

    @Test
    void aFailedCopyFailsItsOwnCheckpointAndTheNextOneCopiesEveryFileAgain() throws Exception {
        holdTheUploader();
        Path first = storage.create(1, false);
        CompletableFuture<TaskStateHandle> failing = start(first);
        // Storage breaks while the copy waits: its shared folder cannot be created.
        Path sharedDir = CheckpointStorage.sharedDirOf(first);
        Files.writeString(sharedDir, "not a folder");
        gate.countDown();

        assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot copy the RocksDB files of store")
                .hasMessageContaining(first.toString())
                .hasMessageContaining("this checkpoint fails");

        Files.delete(sharedDir);
        Path second = storage.create(2, false);
        TaskStateHandle next = start(second).get(30, TimeUnit.SECONDS);
        Set<String> referenced = new HashSet<>();
        next.rocksDb().files().stream()
                .filter(RocksDbFile::shared)
                .forEach(f -> referenced.add(f.file()));
        try (Stream<Path> files = Files.list(sharedDir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("every shared file the next checkpoint references is in storage")
                    .containsExactlyInAnyOrderElementsOf(referenced);
        }
    }

    @Test
    void closingTheStoreFailsTheUploadsNotYetRunAndLetsTheRunningOneFinish() throws Exception {
        CompletableFuture<Object> held = holdTheUploader();
        CompletableFuture<TaskStateHandle> queued = start(storage.create(1, false));
        assertThat(checkpointFolders()).hasSize(2);

        // A task cancelled with its job closes its store from an interrupted thread.
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Thread closer =
                new Thread(
                        () -> {
                            Thread.currentThread().interrupt();
                            backend.close();
                            closed.complete(null);
                        });
        closer.start();
        assertThatThrownBy(() -> queued.get(30, TimeUnit.SECONDS))
                .hasMessageContaining("closed before checkpoint folder");
        assertThat(closed).as("close waits for the running upload").isNotDone();

        gate.countDown();
        closed.get(30, TimeUnit.SECONDS);
        assertThat(held).as("the running upload finished, not interrupted").isCompleted();
        assertThat(held.isCompletedExceptionally()).isFalse();
        assertThat(checkpointFolders()).isEmpty();
    }

    /** Queues work that keeps the store's uploader busy until the gate opens. */
    private CompletableFuture<Object> holdTheUploader() throws IOException {
        Path folder =
                Files.createDirectories(
                        RocksDbBackends.workingFolder(local).resolve("op-0-chk-held"));
        return backend.store()
                .checkpoints()
                .upload(
                        folder,
                        () -> {
                            gate.await();
                            return null;
                        });
    }

    private CompletableFuture<TaskStateHandle> start(Path dir) throws IOException {
        return IncrementalCheckpoint.start(
                dir,
                new SnapshotIdentity("job", CheckpointStorage.idOf(dir)),
                false,
                "op",
                0,
                backend,
                null,
                null);
    }

    private Set<Path> checkpointFolders() throws IOException {
        try (Stream<Path> files = Files.list(RocksDbBackends.workingFolder(local))) {
            return new HashSet<>(files.filter(f -> f.toString().contains("-chk-")).toList());
        }
    }
}
