package dev.flowscale.engine.state;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The native options of one RocksDB store: one block cache of the backend's memory per store, its
 * write buffers charged to that cache (so the cache's capacity bounds both), and the database's and
 * its column families' options; closed with the store.
 */
final class StoreOptions implements AutoCloseable {
    private final Cache cache;
    private final WriteBufferManager writeBuffers;
    private final DBOptions db;
    private final ColumnFamilyOptions columns;

    /** {@code listener} hears of every SST file RocksDB writes. */
    StoreOptions(StateBackendConfig config, AbstractEventListener listener) {
        // Not strict: a strict cache fails reads when pinned blocks fill it; this one evicts down
        // to its capacity and may overshoot only by blocks in use at that moment.
        this.cache = new LRUCache(config.blockCacheBytes());
        this.writeBuffers = new WriteBufferManager(config.writeBufferBytes(), cache);
        this.db =
                new DBOptions()
                        .setCreateIfMissing(true)
                        .setWriteBufferManager(writeBuffers)
                        .setMaxOpenFiles(256)
                        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                        .setListeners(List.of(listener));
        this.columns =
                new ColumnFamilyOptions()
                        .setWriteBufferSize(Math.max(64 << 10, config.writeBufferBytes() / 2))
                        .setTableFormatConfig(
                                new BlockBasedTableConfig()
                                        .setBlockCache(cache)
                                        .setCacheIndexAndFilterBlocks(true));
    }

    /** The default column family's descriptor, then one for each of {@code states}. */
    List<ColumnFamilyDescriptor> descriptors(Collection<String> states) {
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
        states.forEach(state -> descriptors.add(descriptor(state)));
        return descriptors;
    }

    /** The descriptor of state {@code state}'s column family. */
    ColumnFamilyDescriptor descriptor(String state) {
        return new ColumnFamilyDescriptor(state.getBytes(StandardCharsets.UTF_8), columns);
    }

    Cache cache() {
        return cache;
    }

    DBOptions db() {
        return db;
    }

    ColumnFamilyOptions columns() {
        return columns;
    }

    @Override
    public void close() {
        columns.close();
        db.close();
        writeBuffers.close();
        cache.close();
    }
}
