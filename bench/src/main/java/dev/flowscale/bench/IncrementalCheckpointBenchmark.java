package dev.flowscale.bench;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.IncrementalCheckpoint;
import dev.flowscale.engine.checkpoint.SnapshotIdentity;
import dev.flowscale.engine.checkpoint.TaskStateHandle;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedStates;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Measures one RocksDB instance's checkpoint duration and bytes written to snapshot storage: a full
 * snapshot (what a savepoint writes) against incremental checkpoints, the first of them (every SST
 * file is new) and then after each change of 1 % of the keys. Usage: {@code
 * IncrementalCheckpointBenchmark [MB]}, default 100; values are 1,000 random printable characters.
 * "barrier ms" is how long the task's thread is held at the barrier ({@link
 * IncrementalCheckpoint#start} returning); "complete ms" is until the snapshot's files are all in
 * storage (the copy runs on the store's uploader thread, not the task's).
 */
public final class IncrementalCheckpointBenchmark {
    private static final int VALUE_BYTES = 1000;
    private static final StateDescriptor<String> VALUE =
            StateDescriptor.value("payload", String.class);

    private IncrementalCheckpointBenchmark() {}

    public static void main(String[] args) throws Exception {
        int megabytes = args.length == 0 ? 100 : Integer.parseInt(args[0]);
        long keys = (long) megabytes * 1_000_000 / VALUE_BYTES;
        Path local = Files.createTempDirectory("flowscale-incremental-bench-local");
        CheckpointStorage storage =
                new CheckpointStorage(Files.createTempDirectory("flowscale-incremental-bench"));
        StateBackendConfig config = StateBackendConfig.rocksDb().withLocalDir(local);
        KeyedStateBackend backend =
                new KeyedStateBackend(
                        "op",
                        128,
                        new KeyGroupRange(0, 127),
                        RocksDbKeyedStore.open(config, "op-0"));
        try {
            ValueState<String> value = KeyedStates.value(backend, backend.table(VALUE));
            write(backend, value, 0, keys, 1);
            System.out.printf(
                    "%-22s %12s %12s %14s %10s%n",
                    "snapshot", "barrier ms", "complete ms", "bytes written", "SST files");
            Set<String> shared = new HashSet<>();
            measure(storage, backend, 1, true, shared, "full (savepoint)");
            measure(storage, backend, 2, false, shared, "incremental, first");
            for (int round = 0; round < 3; round++) {
                long from = (round * keys / 3) % keys;
                write(backend, value, from, from + keys / 100, 2 + round);
                measure(storage, backend, 3 + round, false, shared, "incremental, 1 % new");
            }
            measure(storage, backend, 6, true, shared, "full (savepoint) again");
        } finally {
            backend.close();
        }
    }

    /** Random printable values, so that RocksDB's block compression cannot shrink them much. */
    private static void write(
            KeyedStateBackend backend, ValueState<String> value, long from, long to, long seed) {
        Random random = new Random(seed);
        char[] payload = new char[VALUE_BYTES];
        for (long key = from; key < to; key++) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] = (char) ('!' + random.nextInt(94));
            }
            backend.setCurrentKey(key);
            value.update(new String(payload));
        }
    }

    private static void measure(
            CheckpointStorage storage,
            KeyedStateBackend backend,
            long id,
            boolean full,
            Set<String> shared,
            String label)
            throws Exception {
        Path dir = storage.create(id, full);
        long t0 = System.nanoTime();
        CompletableFuture<TaskStateHandle> started =
                IncrementalCheckpoint.start(
                        dir, new SnapshotIdentity("bench", id), full, "op", 0, backend, null, null);
        long pauseMicros = (System.nanoTime() - t0) / 1_000;
        TaskStateHandle handle = started.join();
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long bytes = handle.bytes();
        int files = 0;
        if (handle.rocksDb() != null) {
            for (RocksDbFile file : handle.rocksDb().files()) {
                boolean copied = !file.shared() || shared.add(file.file());
                bytes += copied ? file.bytes() : 0;
                files += file.shared() ? 1 : 0;
            }
        }
        System.out.printf(
                "%-22s %12.1f %12d %14d %10d%n", label, pauseMicros / 1000.0, millis, bytes, files);
    }
}
