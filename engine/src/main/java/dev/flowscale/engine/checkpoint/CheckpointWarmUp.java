package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.state.StateCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the code of a checkpoint's commit once per JVM, on a background thread, when a job that
 * takes snapshots starts, so that the job's first checkpoint does not pay for it. Run for the first
 * time, that code loads and links its classes, spins its lambdas, builds Jackson's serializers for
 * the snapshot records and generates their reflective accessors (after fifteen calls each). On the
 * 2-core benchmark machine a 100 MB RocksDB job's first checkpoint took a median 209 ms without
 * this warm-up, 144 ms with its manifest part and 108 ms with both parts (docs/benchmarks.md).
 *
 * <p>Two parts: the manifest codec, both ways, in memory; and, for a job on RocksDB, one
 * incremental checkpoint of a scratch store of one entry into a scratch snapshot storage, both in
 * {@code java.io.tmpdir} (the checkpoint's folder, flush, hard links, the task's state file, the
 * batched fsync, the manifest's atomic write), all deleted when done. Only a head start: if it
 * fails, the job's first checkpoint runs the same code itself and reports any failure of its own.
 */
public final class CheckpointWarmUp {
    /** Enough encodings for each record's accessors to pass the JDK's reflection threshold (15). */
    static final int MANIFEST_ROUND_TRIPS = 20;

    private static final AtomicBoolean MANIFEST = new AtomicBoolean();
    private static final AtomicBoolean ROCKSDB = new AtomicBoolean();

    private CheckpointWarmUp() {}

    /**
     * Starts the warm-up for a job on {@code backend}, for what this JVM has not warmed up yet;
     * returns at once.
     */
    public static void startOnce(StateBackendConfig backend) {
        boolean manifest = MANIFEST.compareAndSet(false, true);
        boolean rocksDb = backend.isRocksDb() && ROCKSDB.compareAndSet(false, true);
        if (!manifest && !rocksDb) {
            return;
        }
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                if (manifest) {
                                    for (int i = 0; i < MANIFEST_ROUND_TRIPS; i++) {
                                        roundTrip();
                                    }
                                }
                                if (rocksDb) {
                                    // Not in the job's local directory: its owner may delete it.
                                    rocksDbCheckpoint(StateBackendConfig.rocksDb());
                                }
                            } catch (IOException | RuntimeException e) {
                                // Only a head start (see the class comment).
                            }
                        },
                        "flowscale-checkpoint-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Takes one incremental checkpoint of a scratch RocksDB store of one entry, in {@code
     * backend}'s local directory, into a snapshot storage beside it, and commits its manifest;
     * deletes the store and the snapshot folder. Returns the task's handle, as the checkpoint wrote
     * it.
     */
    static TaskStateHandle rocksDbCheckpoint(StateBackendConfig backend) throws IOException {
        Path root =
                Files.createTempDirectory(
                        RocksDbKeyedStore.localParent(backend), "flowscale-warm-up-");
        KeyedStateBackend keyed = null;
        try {
            keyed =
                    new KeyedStateBackend(
                            "warm-up",
                            1,
                            KeyGroupRange.of(0),
                            RocksDbKeyedStore.open(backend, "warm-up"));
            Path snapshot = new CheckpointStorage(root).create(1, false);
            ValueState<String> value =
                    KeyedStates.value(
                            keyed, keyed.table(StateDescriptor.value("warm-up", String.class)));
            keyed.setCurrentKey("warm-up");
            value.update("warm-up");
            TaskStateHandle handle =
                    IncrementalCheckpoint.start(
                                    snapshot,
                                    new SnapshotIdentity("warm-up", 1),
                                    false,
                                    "warm-up",
                                    0,
                                    keyed,
                                    new OperatorStateStore("warm-up"),
                                    List.of())
                            .get();
            ManifestFile.write(snapshot, sample(), () -> {});
            return handle;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("the checkpoint warm-up was interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException("the checkpoint warm-up failed: " + e.getCause(), e.getCause());
        } finally {
            if (keyed != null) {
                keyed.close();
            }
            IncrementalCheckpoint.deleteTree(root);
        }
    }

    /**
     * Encodes a manifest naming every kind of entry (heap and RocksDB instances, shared and own
     * files) as {@link ManifestFile#write} does, and decodes it as {@link ManifestFile#read} does,
     * in memory; returns what was decoded.
     */
    static SnapshotMetadata roundTrip() {
        try {
            byte[] bytes = ManifestFile.encode(sample());
            JsonNode read = StateCodec.json().readTree(bytes);
            ManifestFile.checksum(read);
            return StateCodec.json().treeToValue(read, SnapshotMetadata.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SnapshotMetadata sample() {
        RocksDbSnapshot rocksDb =
                new RocksDbSnapshot(
                        "store",
                        Map.of("state", StateDescriptor.Kind.VALUE),
                        List.of(
                                new RocksDbFile("000001.sst", "store-000001.sst", true, 1, 2, "00"),
                                new RocksDbFile("MANIFEST", "op-0-MANIFEST", false, 1, 2, "00")));
        return new SnapshotMetadata(
                SnapshotMetadata.FORMAT_VERSION,
                "warm-up",
                1,
                "CHECKPOINT",
                0,
                128,
                0,
                List.of(
                        new SnapshotMetadata.OperatorEntry(
                                "op",
                                2,
                                List.of(
                                        new TaskStateHandle(
                                                "op", 0, "op-0.state", 1, 2, 0, 63, 0, null),
                                        new TaskStateHandle(
                                                "op",
                                                1,
                                                "op-1.state",
                                                1,
                                                2,
                                                64,
                                                127,
                                                1,
                                                rocksDb)))),
                null,
                null);
    }
}
