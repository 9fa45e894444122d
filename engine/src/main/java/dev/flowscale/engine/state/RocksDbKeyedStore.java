package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.Priority;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One operator instance's keyed state in an embedded RocksDB: a column family per state, and keys
 * that start with their key group (2 bytes, big-endian) followed by the encoded key, so that one
 * key group is one contiguous key range (iterated for snapshots, deleted at once). Values are the
 * snapshot encoding of {@link StateEncoding}, so snapshots copy bytes without decoding them.
 *
 * <p>Native memory is bounded by one block cache per instance, which the write buffers are charged
 * to; the write-ahead log is off because snapshots, not the log, make state durable. Reads and
 * writes are not thread safe: used by its task's thread only; checkpoints are copied into storage
 * by the store's own uploader thread, which reads the hard-linked checkpoint folder, not the
 * database.
 */
public final class RocksDbKeyedStore implements AutoCloseable {
    /**
     * Flush threads for every store of this process. RocksDB's flushes run in one process-wide pool
     * that it grows to what one database's options ask for, one thread with the defaults; a
     * checkpoint flushes every store at its barrier, so with one thread the stores of a job flushed
     * one after the other (seen in a 100 MB checkpoint of two instances: the second flush finished
     * a whole flush after the first). One thread per core, at least two, at most eight.
     */
    static final int FLUSH_THREADS =
            Math.min(8, Math.max(2, Runtime.getRuntime().availableProcessors()));

    static {
        NativeRocksDb.load();
        Env.getDefault().setBackgroundThreads(FLUSH_THREADS, Priority.HIGH);
    }

    private final Path dir;
    private final long memoryLimit;
    private final StoreOptions options;
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private final RocksDB db;
    private final Map<String, Column> columns = new LinkedHashMap<>();
    private final SstDigests digests;
    private int checkpoints;

    /** Numbers the SST files that key-group copies into this store write beside it. */
    private final AtomicInteger ingests = new AtomicInteger();

    private boolean closed;

    /** Copies checkpoints into storage one after another, off the task's thread. */
    private final RocksDbUploads uploads;

    /** A state's column family and kind. */
    record Column(ColumnFamilyHandle handle, StateDescriptor.Kind kind) {}

    /** Receives the entries of one key group: the encoded key (no prefix) and value. */
    public interface EntryConsumer {
        void entry(byte[] key, byte[] value) throws IOException;
    }

    /** Opens a new, empty store in a fresh folder of {@code config}'s local directory. */
    public static RocksDbKeyedStore open(StateBackendConfig config, String name) {
        return new RocksDbKeyedStore(StoreFolders.create(config, name), config);
    }

    /** This process's folder of {@code config}'s local directory (see {@link StoreFolders}). */
    public static Path localParent(StateBackendConfig config) throws IOException {
        return StoreFolders.parent(config);
    }

    /**
     * Opens the database a checkpoint left in {@code dir} (its files copied there), with a column
     * family for each of {@code states}; closing it deletes {@code dir}.
     */
    public static RocksDbKeyedStore openCopy(
            Path dir, Map<String, StateDescriptor.Kind> states, StateBackendConfig config) {
        return new RocksDbKeyedStore(dir, config, states);
    }

    private RocksDbKeyedStore(Path dir, StateBackendConfig config) {
        this(dir, config, Map.of());
    }

    private RocksDbKeyedStore(
            Path dir, StateBackendConfig config, Map<String, StateDescriptor.Kind> states) {
        this.dir = dir;
        this.uploads = new RocksDbUploads(dir.getFileName().toString());
        this.digests = new SstDigests(dir.getFileName().toString());
        this.memoryLimit = config.blockCacheBytes();
        this.options = new StoreOptions(config, digests);
        try {
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
            states.keySet()
                    .forEach(
                            name ->
                                    descriptors.add(
                                            new ColumnFamilyDescriptor(
                                                    name.getBytes(StandardCharsets.UTF_8),
                                                    options.columns())));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            this.db = RocksDB.open(options.db(), dir.toString(), descriptors, handles);
            handles.get(0).close();
            int i = 1;
            for (Map.Entry<String, StateDescriptor.Kind> state : states.entrySet()) {
                columns.put(state.getKey(), new Column(handles.get(i++), state.getValue()));
            }
        } catch (RocksDBException e) {
            closeOptions();
            throw failure("open RocksDB in " + dir, e);
        }
    }

    /** The column of a state, created on first use; a state keeps its kind. */
    synchronized Column column(String state, StateDescriptor.Kind kind) {
        Column column = columns.get(state);
        if (column == null) {
            try {
                ColumnFamilyHandle handle =
                        db.createColumnFamily(
                                new ColumnFamilyDescriptor(
                                        state.getBytes(StandardCharsets.UTF_8), options.columns()));
                column = new Column(handle, kind);
                columns.put(state, column);
            } catch (RocksDBException e) {
                throw failure("create a column family for state '" + state + "'", e);
            }
        }
        if (column.kind() != kind) {
            throw new EngineException(
                    "state '"
                            + state
                            + "' is both "
                            + column.kind()
                            + " and "
                            + kind
                            + "; use one kind per state name");
        }
        return column;
    }

    private synchronized Column existingColumn(String state) {
        return columns.get(state);
    }

    /** The states held, in creation order, with their kinds. */
    public synchronized Map<String, StateDescriptor.Kind> states() {
        Map<String, StateDescriptor.Kind> states = new LinkedHashMap<>();
        columns.forEach((name, c) -> states.put(name, c.kind()));
        return states;
    }

    byte[] get(Column column, byte[] key) {
        try {
            return db.get(column.handle(), key);
        } catch (RocksDBException e) {
            throw failure("read", e);
        }
    }

    void put(Column column, byte[] key, byte[] value) {
        try {
            db.put(column.handle(), writeOptions, key, value);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    /** Writes many entries in one batch (restores): far cheaper than one write each. */
    void putAll(Column column, Map<byte[], byte[]> entries) {
        try (WriteBatch batch = new WriteBatch()) {
            for (Map.Entry<byte[], byte[]> e : entries.entrySet()) {
                batch.put(column.handle(), e.getKey(), e.getValue());
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw failure("write a batch", e);
        }
    }

    void delete(Column column, byte[] key) {
        try {
            db.delete(column.handle(), writeOptions, key);
        } catch (RocksDBException e) {
            throw failure("delete", e);
        }
    }

    /**
     * Visits every entry of {@code state} in {@code keyGroup} as a snapshot block holds it (the
     * encoded key, without the key group, and the encoded value); returns how many there were. A
     * map state's entries, one per map key here, are handed over as one map value per key, so
     * snapshots stay the same on both backends.
     */
    public int forEach(String state, int keyGroup, EntryConsumer consumer) throws IOException {
        Column column = columns.get(state);
        if (column == null) {
            return 0;
        }
        if (column.kind() != StateDescriptor.Kind.MAP) {
            return scan(
                    column,
                    prefix(keyGroup),
                    (key, value) -> {
                        consumer.entry(key, value);
                        return true;
                    });
        }
        RocksDbStates.MapRegrouper maps = new RocksDbStates.MapRegrouper(consumer);
        scan(column, prefix(keyGroup), maps::entry);
        return maps.finish();
    }

    /**
     * Visits, in key order, the entries of {@code column} whose keys start with {@code prefix};
     * returns how many it visited.
     */
    int scan(Column column, byte[] prefix, PrefixScans.Visitor visitor) throws IOException {
        try {
            return PrefixScans.scan(db, column.handle(), prefix, visitor);
        } catch (RocksDBException e) {
            throw failure("iterate", e);
        }
    }

    /** Deletes every entry of {@code column} whose key starts with {@code prefix}, in one batch. */
    void deletePrefix(Column column, byte[] prefix) {
        try {
            PrefixScans.delete(db, column.handle(), writeOptions, prefix);
        } catch (RocksDBException e) {
            throw failure("delete a key's entries", e);
        }
    }

    /** Counts the entries of {@code state} in {@code keyGroup}. */
    public int count(String state, int keyGroup) {
        try {
            return forEach(state, keyGroup, (k, v) -> {});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes key groups {@code first..last} of every state at once (a range tombstone each). */
    public void deleteKeyGroups(int first, int last) {
        for (Column column : columns.values()) {
            try {
                db.deleteRange(column.handle(), writeOptions, prefix(first), prefix(last + 1));
            } catch (RocksDBException e) {
                throw failure("delete key groups " + first + ".." + last, e);
            }
        }
    }

    /**
     * Copies key groups {@code first..last} of every state of {@code from} into this store as they
     * are (keys and values are the same bytes in both), as one SST file per state ingested into
     * this store (see {@link KeyRangeIngest}); returns the bytes copied. This store must hold
     * nothing in those key groups. {@code from} must not change meanwhile (a stopped instance's
     * store).
     */
    public long copyKeyGroups(RocksDbKeyedStore from, int first, int last) {
        long bytes = 0;
        for (Map.Entry<String, StateDescriptor.Kind> state : from.states().entrySet()) {
            Column source = from.existingColumn(state.getKey());
            Column target = column(state.getKey(), state.getValue());
            bytes += from.copyRange(source, this, target, prefix(first), prefix(last + 1));
        }
        return bytes;
    }

    private long copyRange(
            Column source, RocksDbKeyedStore to, Column target, byte[] lo, byte[] hi) {
        Path file = to.dir.resolveSibling(to.id() + "-ingest-" + to.ingests.incrementAndGet());
        try (Options merged = new Options(to.options.db(), to.options.columns())) {
            return KeyRangeIngest.copy(
                    db, source.handle(), to.db, target.handle(), lo, hi, file, merged);
        } catch (RocksDBException | IOException e) {
            throw new EngineException(
                    "RocksDB state in " + to.dir + ": cannot copy key groups in (" + e + ")", e);
        }
    }

    /** The name of this store's folder, unique among the stores of the local directory. */
    public String id() {
        return dir.getFileName().toString();
    }

    /**
     * Flushes the write buffers and makes a RocksDB checkpoint in a new folder beside the store:
     * the immutable SST files hard-linked, the small descriptor files copied. The caller deletes
     * the folder when it has copied what it needs.
     */
    public synchronized Path checkpoint() {
        Path target = dir.resolveSibling(id() + "-chk-" + (++checkpoints));
        checkpointInto(target);
        return target;
    }

    /**
     * A new store that starts with this store's contents as they are now (a RocksDB checkpoint: SST
     * files hard-linked, so near-instant and without copying on one file system), in a fresh folder
     * of {@code config}'s local directory; it is independent of this store from then on. Its record
     * of uploaded files starts with the entries of this store's record whose SST files it shares
     * (hard links keep their names, and a store never reuses a file number), so its first
     * incremental checkpoint copies only files made since.
     */
    public RocksDbKeyedStore copy(StateBackendConfig config, String name) {
        Path target = StoreFolders.reserve(config, name);
        checkpointInto(target);
        try {
            RocksDbKeyedStore copy = new RocksDbKeyedStore(target, config, states());
            copy.recordUploaded(uploads.in(target));
            return copy;
        } catch (RuntimeException e) {
            WorkingFolders.delete(target);
            throw e;
        }
    }

    private synchronized void checkpointInto(Path target) {
        // Writes may stall while this flush runs: the task's thread, the only writer, waits for it.
        try (FlushOptions flush =
                new FlushOptions().setWaitForFlush(true).setAllowWriteStall(true)) {
            List<ColumnFamilyHandle> handles =
                    columns.values().stream().map(Column::handle).toList();
            if (!handles.isEmpty()) {
                db.flush(flush, handles);
            }
            LiveFilesCheckpoint.create(db, dir, target);
        } catch (RocksDBException | IOException e) {
            throw new EngineException(
                    "RocksDB state in "
                            + dir
                            + ": cannot make a checkpoint in "
                            + target
                            + " ("
                            + e
                            + ")",
                    e);
        }
    }

    /**
     * Runs {@code work}, the upload of RocksDB checkpoint folder {@code checkpoint}, on this
     * store's uploader thread (see {@link RocksDbUploads#upload}).
     */
    public <T> CompletableFuture<T> upload(Path checkpoint, Callable<T> work) {
        return uploads.upload(checkpoint, work);
    }

    /** The SST files of this store already in snapshot storage (see {@link RocksDbUploads}). */
    public Map<String, RocksDbFile> uploaded() {
        return uploads.uploaded();
    }

    /** Replaces the record of uploaded files (see {@link RocksDbUploads#record}). */
    public void recordUploaded(Collection<RocksDbFile> files) {
        uploads.record(files);
    }

    /**
     * The length, CRC-32 and SHA-256 of this store's SST file {@code name}, measured in the
     * background when RocksDB wrote it, if they are ready and the file has {@code bytes} bytes;
     * null otherwise (the caller reads the file). Also forgets files compacted away since.
     */
    public FileSums.Sums sumsOf(String name, long bytes) {
        FileSums.Sums sums = digests.of(name, bytes);
        if (sums == null) {
            digests.forgetMissing(dir);
        }
        return sums;
    }

    /**
     * Compacts every state into its bottom level: merges its files and drops deleted entries (for
     * one, the key groups a rescale cut out with range deletes), which gives their disk back.
     */
    public synchronized void compact() {
        for (Column column : columns.values()) {
            try {
                db.compactRange(column.handle());
            } catch (RocksDBException e) {
                throw failure("compact", e);
            }
        }
    }

    /** The 2-byte prefix of a key group; {@code keyGroup} may be one past the last. */
    static byte[] prefix(int keyGroup) {
        return new byte[] {(byte) (keyGroup >>> 8), (byte) keyGroup};
    }

    /**
     * Native memory in use: block cache, including the write buffers charged to it. Like the other
     * figures, safe to read from any thread; 0 once closed.
     */
    public synchronized long memoryBytes() {
        return closed ? 0 : options.cache().getUsage();
    }

    /** The configured bound of {@link #memoryBytes}. */
    public long memoryLimitBytes() {
        return memoryLimit;
    }

    /** Bytes in write buffers (memtables), over all states. */
    public synchronized long writeBufferBytes() {
        return closed ? 0 : property("rocksdb.cur-size-all-mem-tables");
    }

    /** Entries in the write buffers (active and immutable memtables), over all states. */
    synchronized long memTableEntries() {
        return closed
                ? 0
                : property("rocksdb.num-entries-active-mem-table")
                        + property("rocksdb.num-entries-imm-mem-tables");
    }

    /** RocksDB's estimate of the live keys, over all states. */
    public synchronized long estimatedKeys() {
        return closed ? 0 : property("rocksdb.estimate-num-keys");
    }

    /** Bytes of the store's files on local disk (SST files and the rest). */
    public synchronized long diskBytes() {
        if (closed) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private long property(String name) {
        long sum = 0;
        try {
            for (Column column : columns.values()) {
                sum += db.getLongProperty(column.handle(), name);
            }
        } catch (RocksDBException e) {
            throw failure("read property " + name, e);
        }
        return sum;
    }

    /** Closes the database and deletes its folder; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        uploads.stop();
        digests.stop();
        columns.values().forEach(c -> c.handle().close());
        columns.clear();
        db.close();
        closeOptions();
        WorkingFolders.delete(dir);
    }

    private void closeOptions() {
        digests.close();
        writeOptions.close();
        options.close();
    }

    private EngineException failure(String what, RocksDBException e) {
        return new EngineException(
                "RocksDB state in " + dir + ": cannot " + what + " (" + e.getMessage() + ")", e);
    }
}
