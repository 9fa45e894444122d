package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.FileSums;
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
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Writes one task's part of a snapshot, incrementally where it can. A periodic checkpoint of a
 * RocksDB instance takes a RocksDB checkpoint and puts into the storage's {@code shared} folder
 * only the SST files that the store's earlier checkpoints have not put there already (SST files
 * never change once written, and their names are unique within a store), hard-linked where storage
 * is on the store's file system, copied otherwise; the small descriptor files go into the
 * checkpoint's own folder. Only the RocksDB checkpoint itself (hard links) is taken on the task's
 * thread at the barrier; the copying runs on the store's uploader thread, and the task acknowledges
 * the checkpoint when it is done. Everything else (savepoints, the heap backend, operator lists and
 * splits) is written whole by {@link InstanceStateFile}, so savepoints stay self-contained and
 * portable between backends.
 */
public final class IncrementalCheckpoint {
    private IncrementalCheckpoint() {}

    /**
     * Starts writing a task's part of snapshot {@code dir} (see the class comment). What must see
     * the state as it is at the barrier happens before this returns, on the caller's (the task's)
     * thread: the operator lists and splits, and for an incremental checkpoint the RocksDB
     * checkpoint (a flush and hard links). The copy of the RocksDB files into storage, with their
     * CRC-32 and SHA-256, then runs on the store's uploader thread, after the uploads started
     * before it. The future completes with the task's handle once every file is copied, or
     * exceptionally with an {@link IOException} naming the checkpoint and the file.
     *
     * @throws IOException if the part written before returning cannot be written
     */
    public static CompletableFuture<TaskStateHandle> start(
            Path dir,
            SnapshotIdentity identity,
            boolean savepoint,
            String operatorId,
            int instance,
            KeyedStateBackend keyed,
            OperatorStateStore operatorState,
            List<?> splits)
            throws IOException {
        if (savepoint || keyed == null || keyed.store() == null) {
            return CompletableFuture.completedFuture(
                    InstanceStateFile.write(
                            dir, identity, operatorId, instance, keyed, operatorState, splits));
        }
        // The operator lists and splits are captured here, at the barrier; their file is written
        // on the uploader thread with the RocksDB files and synced with them in one batch, so the
        // flush below does not wait for a file's fsync.
        List<InstanceStateFile.EncodedList> lists = InstanceStateFile.encodeLists(operatorState);
        List<byte[]> encodedSplits = InstanceStateFile.encodeSplits(splits);
        RocksDbKeyedStore store = keyed.store();
        Map<String, StateDescriptor.Kind> states = store.states();
        KeyGroupRange range = keyed.keyGroupRange();
        String prefix = operatorId + "-" + instance + "-";
        Path checkpoint = store.checkpoints().checkpoint();
        return store.checkpoints()
                .upload(
                        checkpoint,
                        () -> {
                            TaskStateHandle base =
                                    InstanceStateFile.write(
                                            dir,
                                            identity,
                                            operatorId,
                                            instance,
                                            null,
                                            lists,
                                            encodedSplits,
                                            false);
                            List<Path> written = new ArrayList<>(List.of(dir.resolve(base.file())));
                            List<RocksDbFile> files =
                                    upload(store, checkpoint, dir, prefix, written);
                            return handle(
                                    base, range, new RocksDbSnapshot(store.id(), states, files));
                        });
    }

    private static TaskStateHandle handle(
            TaskStateHandle base, KeyGroupRange range, RocksDbSnapshot rocksDb) {
        return new TaskStateHandle(
                base.operatorId(),
                base.instance(),
                base.file(),
                base.bytes(),
                base.crc32(),
                range.start(),
                range.endInclusive(),
                base.splits(),
                rocksDb);
    }

    /**
     * Copies the files of RocksDB checkpoint folder {@code checkpoint} into storage and deletes the
     * folder; on the uploader thread. {@code written} holds files already written into the snapshot
     * and not yet synced; they are synced with the copies. The store's record of uploaded files
     * changes only when every file is copied, so a failed upload leaves later checkpoints to copy
     * its files again.
     */
    private static List<RocksDbFile> upload(
            RocksDbKeyedStore store, Path checkpoint, Path dir, String prefix, List<Path> written)
            throws IOException {
        try (Stream<Path> listed = Files.list(checkpoint)) {
            Path shared = Files.createDirectories(CheckpointStorage.sharedDirOf(dir));
            List<RocksDbFile> files = new ArrayList<>();
            for (Path local : listed.sorted().toList()) {
                String name = local.getFileName().toString();
                files.add(
                        name.endsWith(".sst")
                                ? sharedFile(store, local, shared, written)
                                : copied(local, dir.resolve(prefix + name), written));
            }
            // Durable before the manifest names them: every file, and the shared folder's names
            // (the snapshot's own folder is synced after the manifest's rename, see ManifestFile).
            FileCopy.sync(written, List.of(shared));
            store.checkpoints().recordUploaded(files.stream().filter(RocksDbFile::shared).toList());
            return files;
        } catch (IOException e) {
            throw new IOException(
                    "cannot copy the RocksDB files of store "
                            + store.id()
                            + " into snapshot "
                            + dir
                            + " ("
                            + e
                            + "); this checkpoint fails, the next one copies them again",
                    e);
        }
    }

    /** Copies an SST file to the shared folder unless an earlier checkpoint already did. */
    private static RocksDbFile sharedFile(
            RocksDbKeyedStore store, Path local, Path shared, List<Path> written)
            throws IOException {
        String name = local.getFileName().toString();
        RocksDbFile earlier = store.checkpoints().uploaded().get(name);
        if (earlier != null
                && Files.isRegularFile(shared.resolve(earlier.file()))
                && Files.size(shared.resolve(earlier.file())) == earlier.bytes()) {
            return earlier;
        }
        String file = store.id() + "-" + name;
        Path target = shared.resolve(file);
        FileSums.Sums sums =
                FileCopy.linkOrCopyUnsynced(
                        local,
                        target,
                        store.checkpoints().sumsOf(name, Files.size(local)),
                        written);
        return new RocksDbFile(name, file, true, sums.bytes(), sums.crc32(), sums.sha256());
    }

    /** Copies a descriptor file of the RocksDB checkpoint (its own copy) into storage. */
    private static RocksDbFile copied(Path local, Path target, List<Path> written)
            throws IOException {
        FileSums.Sums sums = FileCopy.copyUnsynced(local, target);
        written.add(target);
        return new RocksDbFile(
                local.getFileName().toString(),
                target.getFileName().toString(),
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
