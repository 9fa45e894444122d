package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.state.RocksDbFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint is reported complete before its retention runs, yet retention always runs before the
 * next snapshot starts: it must never delete a shared file a newer checkpoint is writing.
 */
class RetentionAfterCompletionTest {
    @TempDir Path root;
    private ScheduledExecutorService timer;
    private StorageOwner owner;
    private final List<Long> barriers = new ArrayList<>();
    private CheckpointStorage storage;
    private CheckpointCoordinator coordinator;

    /** Checkpoint 1, referencing shared file a.sst, is complete. */
    private Path first;

    @BeforeEach
    void commitAFirstCheckpoint() throws Exception {
        timer = Executors.newSingleThreadScheduledExecutor();
        owner = StorageOwner.acquire(root, "job", Clock.systemUTC());
        storage = new CheckpointStorage(root);
        coordinator = coordinator(storage, this::writeSharedFileAtBarrier);
        first = checkpoint(coordinator, "a.sst").get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        timer.shutdownNow();
        owner.close();
    }

    @Test
    void aCheckpointTriggeredFromTheCompletionCallbackKeepsTheSharedFilesItWrites()
            throws Exception {
        CompletableFuture<CompletableFuture<Path>> third = new CompletableFuture<>();
        CompletableFuture<Path> second = coordinator.trigger(false, false);
        second.thenRun(() -> third.complete(coordinator.trigger(false, false)));
        coordinator.acknowledge(2, handle(coordinator.directory(2), "b.sst"));

        coordinator.acknowledge(3, handle(coordinator.directory(3), "c.sst"));
        Path last = third.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);

        assertThat(barriers).containsExactly(1L, 2L, 3L);
        assertThat(Files.exists(shared("c.sst")))
                .as("the file checkpoint 3 wrote while checkpoint 2's retention was owed")
                .isTrue();
        assertThat(storage.completedSnapshots()).contains(last).doesNotContain(first);
        assertThat(Files.exists(shared("a.sst"))).as("only checkpoint 1 referenced it").isFalse();
        assertThat(CheckpointStorage.sharedFiles(ManifestFile.read(last))).contains("c.sst");
    }

    @Test
    void aCheckpointIsReportedBeforeItsRetentionRunsAndRetentionIsDoneWhenTheCommitReturns()
            throws Exception {
        CompletableFuture<Path> second = coordinator.trigger(false, false);
        CompletableFuture<Boolean> firstThereAtReport =
                second.thenApply(p -> Files.exists(first.resolve(SnapshotMetadata.FILE_NAME)));

        coordinator.acknowledge(2, handle(coordinator.directory(2), "b.sst"));

        assertThat(firstThereAtReport.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(storage.completedSnapshots()).containsExactly(second.get());
        assertThat(Files.exists(shared("a.sst"))).isFalse();
    }

    private CheckpointCoordinator coordinator(
            CheckpointStorage storage, java.util.function.Consumer<CheckpointBarrier> sources) {
        CheckpointCoordinator.Settings settings =
                new CheckpointCoordinator.Settings(
                        storage, owner, Duration.ofMinutes(1), 1, Set::of, Clock.systemUTC());
        return new CheckpointCoordinator(
                "job", 8, Map.of("op", 1), settings, new AtomicLong(), sources, timer);
    }

    /** What a RocksDB task does at the barrier: its upload puts a new file in the shared folder. */
    private void writeSharedFileAtBarrier(CheckpointBarrier barrier) {
        barriers.add(barrier.id());
        try {
            Files.createDirectories(root.resolve(CheckpointStorage.SHARED));
            Files.writeString(shared(name(barrier.id())), "sst of checkpoint " + barrier.id());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private CompletableFuture<Path> checkpoint(CheckpointCoordinator coordinator, String file) {
        CompletableFuture<Path> result = coordinator.trigger(false, false);
        long id = coordinator.pendingId();
        coordinator.acknowledge(id, handle(coordinator.directory(id), file));
        return result;
    }

    private static String name(long id) {
        return (char) ('a' + id - 1) + ".sst";
    }

    private Path shared(String file) {
        return root.resolve(CheckpointStorage.SHARED).resolve(file);
    }

    private TaskStateHandle handle(Path dir, String sharedFile) {
        try {
            Files.writeString(dir.resolve("op-0.state"), "operator state");
            long bytes = Files.size(shared(sharedFile));
            RocksDbFile sst = new RocksDbFile("000001.sst", sharedFile, true, bytes, 0, "00");
            return new TaskStateHandle(
                    "op",
                    0,
                    "op-0.state",
                    14,
                    0,
                    0,
                    7,
                    0,
                    new RocksDbSnapshot("store", Map.of(), List.of(sst)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
