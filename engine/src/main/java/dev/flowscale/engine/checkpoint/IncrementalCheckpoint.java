package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes one task's part of a snapshot, incrementally where it can. A periodic checkpoint of a
 * RocksDB instance takes a RocksDB checkpoint and copies into the storage's {@code shared} folder
 * only the SST files that the store's earlier checkpoints have not copied there already (SST files
 * never change once written, and their names are unique within a store); the small descriptor files
 * go into the checkpoint's own folder. Everything else (savepoints, the heap backend, operator
 * lists and splits) is written whole by {@link InstanceStateFile}, so savepoints stay
 * self-contained and portable between backends.
 */
public final class IncrementalCheckpoint {
    private IncrementalCheckpoint() {}

    /** Writes a task's part of snapshot {@code dir}; see the class comment. */
    public static TaskStateHandle write(
            Path dir,
            boolean savepoint,
            String operatorId,
            int instance,
            KeyedStateBackend keyed,
            OperatorStateStore operatorState,
            List<?> splits)
            throws IOException {
        if (savepoint || keyed == null || keyed.store() == null) {
            return InstanceStateFile.write(dir, operatorId, instance, keyed, operatorState, splits);
        }
        TaskStateHandle base =
                InstanceStateFile.write(dir, operatorId, instance, null, operatorState, splits);
        RocksDbKeyedStore store = keyed.store();
        String prefix = operatorId + "-" + instance + "-";
        RocksDbSnapshot rocksDb =
                new RocksDbSnapshot(store.id(), store.states(), upload(store, dir, prefix));
        KeyGroupRange range = keyed.keyGroupRange();
        return new TaskStateHandle(
                operatorId,
                instance,
                base.file(),
                base.bytes(),
                base.crc32(),
                range.start(),
                range.endInclusive(),
                base.splits(),
                rocksDb);
    }

    private static List<RocksDbFile> upload(RocksDbKeyedStore store, Path dir, String prefix)
            throws IOException {
        Path shared = Files.createDirectories(CheckpointStorage.sharedDirOf(dir));
        Path checkpoint = store.checkpoint();
        try (Stream<Path> listed = Files.list(checkpoint)) {
            List<RocksDbFile> files = new ArrayList<>();
            for (Path local : listed.sorted().toList()) {
                String name = local.getFileName().toString();
                files.add(
                        name.endsWith(".sst")
                                ? sharedFile(store, local, shared)
                                : ownFile(local, dir, prefix + name));
            }
            Map<String, RocksDbFile> uploaded = store.uploaded();
            uploaded.clear();
            files.stream().filter(RocksDbFile::shared).forEach(f -> uploaded.put(f.name(), f));
            return files;
        } finally {
            deleteTree(checkpoint);
        }
    }

    /** Copies an SST file to the shared folder unless an earlier checkpoint already did. */
    private static RocksDbFile sharedFile(RocksDbKeyedStore store, Path local, Path shared)
            throws IOException {
        String name = local.getFileName().toString();
        RocksDbFile earlier = store.uploaded().get(name);
        if (earlier != null
                && Files.isRegularFile(shared.resolve(earlier.file()))
                && Files.size(shared.resolve(earlier.file())) == earlier.bytes()) {
            return earlier;
        }
        String file = store.id() + "-" + name;
        FileCopy.Sums sums = FileCopy.copy(local, shared.resolve(file));
        return new RocksDbFile(name, file, true, sums.bytes(), sums.crc32(), sums.sha256());
    }

    private static RocksDbFile ownFile(Path local, Path dir, String file) throws IOException {
        FileCopy.Sums sums = FileCopy.copy(local, dir.resolve(file));
        return new RocksDbFile(
                local.getFileName().toString(),
                file,
                false,
                sums.bytes(),
                sums.crc32(),
                sums.sha256());
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A leftover temporary folder is harmless; it is never read again.
        }
    }
}
