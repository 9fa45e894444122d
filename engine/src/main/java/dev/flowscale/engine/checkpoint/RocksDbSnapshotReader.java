package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.checkpoint.RestoredState.InstanceRestore;
import dev.flowscale.engine.state.FileSums;
import dev.flowscale.engine.state.RocksDbFile;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Restores the keyed state of one RocksDB instance from an incremental checkpoint: copies its files
 * (shared SST files and its own descriptor files) into a temporary folder, checking each against
 * the length, CRC-32 and SHA-256 the manifest records, opens that copy, and hands each key group of
 * the instance's range to the new instance that owns it (so any parallelism restores), before the
 * copy is deleted.
 */
final class RocksDbSnapshotReader {
    private RocksDbSnapshotReader() {}

    static void read(Path dir, TaskStateHandle handle, int keyGroups, InstanceRestore[] targets) {
        RocksDbSnapshot snapshot = handle.rocksDb();
        Path local = download(dir, handle);
        try (RocksDbKeyedStore store =
                RocksDbKeyedStore.openCopy(
                        local, snapshot.states(), StateBackendConfig.rocksDb())) {
            for (int g = handle.keyGroupStart(); g <= handle.keyGroupEnd(); g++) {
                InstanceRestore owner = SnapshotReader.owner(targets, g, keyGroups);
                byte[] block = InstanceStateFile.rocksDbBlock(store, g);
                owner.keyGroups.put(g, KeyGroupBlocks.decode(block, g));
            }
        } catch (IOException e) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + ": cannot read the RocksDB state of "
                            + describe(handle)
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static Path download(Path dir, TaskStateHandle handle) {
        Path local = null;
        try {
            local =
                    Files.createTempDirectory(
                            RocksDbKeyedStore.localParent(StateBackendConfig.rocksDb()),
                            "flowscale-restore-" + handle.operatorId() + "-");
            for (RocksDbFile file : handle.rocksDb().files()) {
                copyChecked(dir, handle, file, local);
            }
            return local;
        } catch (IOException | RuntimeException e) {
            if (local != null) {
                IncrementalCheckpoint.deleteTree(local);
            }
            if (e instanceof SnapshotException s) {
                throw s;
            }
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + ": cannot copy the RocksDB files of "
                            + describe(handle)
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static void copyChecked(Path dir, TaskStateHandle handle, RocksDbFile file, Path local)
            throws IOException {
        Path source =
                file.shared()
                        ? CheckpointStorage.sharedDirOf(dir).resolve(file.file())
                        : dir.resolve(file.file());
        String what = (file.shared() ? "shared file " : "file ") + source;
        if (!Files.isRegularFile(source)) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is incomplete: "
                            + what
                            + " (RocksDB file "
                            + file.name()
                            + " of "
                            + describe(handle)
                            + ") is missing; restore an earlier snapshot or a savepoint");
        }
        FileSums.Sums sums = FileCopy.copy(source, local.resolve(file.name()));
        if (sums.bytes() != file.bytes()
                || sums.crc32() != file.crc32()
                || !sums.sha256().equals(file.sha256())) {
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is corrupt: "
                            + what
                            + " (RocksDB file "
                            + file.name()
                            + " of "
                            + describe(handle)
                            + ") has "
                            + sums.bytes()
                            + " bytes, SHA-256 "
                            + sums.sha256()
                            + " where the manifest records "
                            + file.bytes()
                            + " bytes, SHA-256 "
                            + file.sha256()
                            + "; it was damaged: restore an earlier snapshot or a savepoint");
        }
    }

    private static String describe(TaskStateHandle handle) {
        return "operator '" + handle.operatorId() + "' instance " + handle.instance();
    }
}
