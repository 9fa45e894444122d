package dev.flowscale.engine.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The native memory and size of one {@link RocksDbKeyedStore}, as the engine's gauges read them.
 * Safe to read from any thread: each figure is read under the store's lock, so it never meets a
 * closing database; every figure is 0 once the store is closed.
 */
public final class RocksDbStoreFigures {
    private final RocksDbKeyedStore store;
    private final long memoryLimit;

    RocksDbStoreFigures(RocksDbKeyedStore store, long memoryLimit) {
        this.store = store;
        this.memoryLimit = memoryLimit;
    }

    /** Native memory in use: block cache, including the write buffers charged to it. */
    public long memoryBytes() {
        return whileOpen(() -> store.options().cache().getUsage());
    }

    /** The configured bound of {@link #memoryBytes}. */
    public long memoryLimitBytes() {
        return memoryLimit;
    }

    /** Bytes in write buffers (memtables), over all states. */
    public long writeBufferBytes() {
        return whileOpen(() -> store.property("rocksdb.cur-size-all-mem-tables"));
    }

    /** Entries in the write buffers (active and immutable memtables), over all states. */
    long memTableEntries() {
        return whileOpen(
                () ->
                        store.property("rocksdb.num-entries-active-mem-table")
                                + store.property("rocksdb.num-entries-imm-mem-tables"));
    }

    /** RocksDB's estimate of the live keys, over all states. */
    public long estimatedKeys() {
        return whileOpen(() -> store.property("rocksdb.estimate-num-keys"));
    }

    /** Bytes of the store's files on local disk (SST files and the rest); 0 if unreadable. */
    public long diskBytes() {
        return whileOpen(
                () -> {
                    try (Stream<Path> files = Files.list(store.dir())) {
                        return files.mapToLong(p -> p.toFile().length()).sum();
                    } catch (IOException e) {
                        return 0;
                    }
                });
    }

    private long whileOpen(LongSupplier read) {
        synchronized (store) {
            return store.isClosed() ? 0 : read.getAsLong();
        }
    }
}
