package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.SstFileWriter;

/**
 * Copies one key range of a column from one RocksDB into another as an SST file: written in key
 * order beside the target, then ingested (hard-linked into the target's files). Writing the range
 * through the target's write buffers instead makes it flush them many times over while it stalls on
 * its own flushes and compactions: seconds for a few hundred MB on a loaded disk, all of it while a
 * rescale holds the job down. An ingested file bypasses the write buffers, and since the target
 * holds nothing in the range (it gains those key groups), RocksDB places it below the files it
 * overlaps nothing with, so it is not compacted again soon either.
 */
final class KeyRangeIngest {
    private KeyRangeIngest() {}

    /**
     * Copies key groups {@code first..last} of every state of {@code from} into {@code to} as they
     * are, one SST file per state; returns the bytes copied (see {@link
     * RocksDbKeyedStore#copyKeyGroups}).
     */
    static long copyKeyGroups(RocksDbKeyedStore from, RocksDbKeyedStore to, int first, int last) {
        byte[] lo = RocksDbKeyedStore.prefix(first);
        byte[] hi = RocksDbKeyedStore.prefix(last + 1);
        long bytes = 0;
        for (Map.Entry<String, StateDescriptor.Kind> state : from.states().entrySet()) {
            ColumnFamilyHandle source = from.existingColumn(state.getKey()).handle();
            ColumnFamilyHandle target = to.column(state.getKey(), state.getValue()).handle();
            try (Options merged = new Options(to.options().db(), to.options().columns())) {
                bytes +=
                        copy(
                                from.db(),
                                source,
                                to.db(),
                                target,
                                lo,
                                hi,
                                to.nextIngestFile(),
                                merged);
            } catch (RocksDBException | IOException e) {
                throw new EngineException(
                        "RocksDB state in " + to.dir() + ": cannot copy key groups in (" + e + ")",
                        e);
            }
        }
        return bytes;
    }

    /**
     * Copies the entries of {@code source} in {@code from} with keys in [{@code lo}, {@code hi})
     * into {@code target} of {@code to}, through SST file {@code file} (deleted afterwards) written
     * with {@code options} (the target column's); returns the bytes of keys and values copied.
     */
    static long copy(
            RocksDB from,
            ColumnFamilyHandle source,
            RocksDB to,
            ColumnFamilyHandle target,
            byte[] lo,
            byte[] hi,
            Path file,
            Options options)
            throws RocksDBException, IOException {
        long bytes = 0;
        try (Slice upper = new Slice(hi);
                ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = from.newIterator(source, read);
                EnvOptions env = new EnvOptions();
                SstFileWriter writer = new SstFileWriter(env, options)) {
            writer.open(file.toString());
            for (it.seek(lo); it.isValid(); it.next()) {
                byte[] key = it.key();
                byte[] value = it.value();
                writer.put(key, value);
                bytes += key.length + value.length;
            }
            it.status();
            if (bytes == 0) {
                // RocksDB refuses to finish an SST file without entries: nothing to ingest.
                return 0;
            }
            writer.finish();
        } finally {
            if (bytes == 0) {
                Files.deleteIfExists(file);
            }
        }
        ingest(to, target, file);
        return bytes;
    }

    private static void ingest(RocksDB to, ColumnFamilyHandle target, Path file)
            throws RocksDBException, IOException {
        try (IngestExternalFileOptions ingest =
                new IngestExternalFileOptions()
                        .setMoveFiles(true)
                        .setSnapshotConsistency(false)
                        .setAllowBlockingFlush(true)) {
            to.ingestExternalFile(target, List.of(file.toString()), ingest);
        } finally {
            // Moved (linked) into the target: this name is no longer needed either way.
            Files.deleteIfExists(file);
        }
    }
}
