package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.ColumnFamilyHandle;
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
 * writes are not thread safe: used by its task's thread only. Checkpoints, copies and uploads are
 * {@link RocksDbCheckpoints}'s; the memory and size figures are {@link RocksDbStoreFigures}'s.
 */
public final class RocksDbKeyedStore implements AutoCloseable {
    static {
        NativeRocksDb.load();
        NativeRocksDb.sizeFlushPool();
    }

    private final Path dir;
    private final StoreOptions options;
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private final RocksDB db;
    private final RocksDbColumns columns;
    private final SstDigests digests;
    private final RocksDbCheckpoints checkpoints;
    private final RocksDbStoreFigures figures;

    /** Numbers the SST files that key-group copies into this store write beside it. */
    private final AtomicInteger ingests = new AtomicInteger();

    private boolean closed;

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
        this.digests = new SstDigests(id());
        this.checkpoints = new RocksDbCheckpoints(this, digests);
        this.figures = new RocksDbStoreFigures(this, config.blockCacheBytes());
        this.options = new StoreOptions(config, digests);
        try {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            this.db =
                    RocksDB.open(
                            options.db(),
                            dir.toString(),
                            options.descriptors(states.keySet()),
                            handles);
            this.columns = new RocksDbColumns(db, options, states, handles, dir);
        } catch (RocksDBException e) {
            closeOptions();
            throw failure("open RocksDB in " + dir, e);
        }
    }

    /** The column of a state, created on first use; a state keeps its kind. */
    synchronized Column column(String state, StateDescriptor.Kind kind) {
        return columns.column(state, kind);
    }

    synchronized Column existingColumn(String state) {
        return columns.existing(state);
    }

    /** The states held, in creation order, with their kinds. */
    public synchronized Map<String, StateDescriptor.Kind> states() {
        return columns.states();
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
        Column column = columns.existing(state);
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
        for (ColumnFamilyHandle column : columns.handles()) {
            try {
                db.deleteRange(column, writeOptions, prefix(first), prefix(last + 1));
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
        return KeyRangeIngest.copyKeyGroups(from, this, first, last);
    }

    /** A new name beside this store for an SST file that a key-group copy ingests into it. */
    Path nextIngestFile() {
        return dir.resolveSibling(id() + "-ingest-" + ingests.incrementAndGet());
    }

    /** The name of this store's folder, unique among the stores of the local directory. */
    public String id() {
        return dir.getFileName().toString();
    }

    /** This store's checkpoints, copies and uploads. */
    public RocksDbCheckpoints checkpoints() {
        return checkpoints;
    }

    /** This store's native memory and size, for gauges. */
    public RocksDbStoreFigures figures() {
        return figures;
    }

    Path dir() {
        return dir;
    }

    RocksDB db() {
        return db;
    }

    StoreOptions options() {
        return options;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** The column families of the states held, in creation order. */
    List<ColumnFamilyHandle> handles() {
        return columns.handles();
    }

    /**
     * Compacts every state into its bottom level: merges its files and drops deleted entries (for
     * one, the key groups a rescale cut out with range deletes), which gives their disk back.
     */
    public synchronized void compact() {
        for (ColumnFamilyHandle column : columns.handles()) {
            try {
                db.compactRange(column);
            } catch (RocksDBException e) {
                throw failure("compact", e);
            }
        }
    }

    /** The 2-byte prefix of a key group; {@code keyGroup} may be one past the last. */
    static byte[] prefix(int keyGroup) {
        return new byte[] {(byte) (keyGroup >>> 8), (byte) keyGroup};
    }

    /** The sum of RocksDB property {@code name} over all states; call under the store's lock. */
    long property(String name) {
        long sum = 0;
        try {
            for (ColumnFamilyHandle column : columns.handles()) {
                sum += db.getLongProperty(column, name);
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
        checkpoints.stop();
        digests.stop();
        columns.close();
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
        return failure(dir, what, e);
    }

    /** The error of operation {@code what} on the store in {@code dir}. */
    static EngineException failure(Path dir, String what, RocksDBException e) {
        return new EngineException(
                "RocksDB state in " + dir + ": cannot " + what + " (" + e.getMessage() + ")", e);
    }
}
