package dev.flowscale.engine.state;

import dev.flowscale.engine.api.InvalidJobException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where a job keeps its keyed state. {@link Kind#HEAP} holds objects in the JVM's heap (fastest,
 * bounded by the heap). {@link Kind#ROCKSDB} holds encoded entries in one embedded RocksDB per
 * operator instance under {@code localDir}, so state can outgrow the heap; its native memory is
 * bounded per instance by {@code blockCacheBytes}, which also accounts for the write buffers (at
 * most {@code writeBufferBytes} of them). Snapshots have the same format for both, so a savepoint
 * restores on either.
 *
 * @param kind heap or rocksdb
 * @param localDir the folder for RocksDB's files (a folder per process, see {@link WorkingFolders},
 *     and in it one per instance, deleted when the instance ends); null for the job's storage
 *     ({@code JobConfig.stateBackend()}), or java.io.tmpdir for a job without storage
 * @param blockCacheBytes native memory per instance for cached blocks and write buffers
 * @param writeBufferBytes the part of {@code blockCacheBytes} that write buffers may use
 */
public record StateBackendConfig(
        Kind kind, Path localDir, long blockCacheBytes, long writeBufferBytes) {

    /** The two backends. */
    public enum Kind {
        HEAP,
        ROCKSDB
    }

    static final long DEFAULT_BLOCK_CACHE = 64L << 20;
    static final long DEFAULT_WRITE_BUFFER = 16L << 20;

    public StateBackendConfig {
        if (kind == null) {
            throw new InvalidJobException("state backend: kind is missing; use heap or rocksdb");
        }
        if (blockCacheBytes < (1 << 20)) {
            throw new InvalidJobException(
                    "state backend: blockCacheBytes is "
                            + blockCacheBytes
                            + "; use at least 1 MiB");
        }
        if (writeBufferBytes < (64 << 10) || writeBufferBytes > blockCacheBytes) {
            throw new InvalidJobException(
                    "state backend: writeBufferBytes is "
                            + writeBufferBytes
                            + "; use at least 64 KiB and at most blockCacheBytes ("
                            + blockCacheBytes
                            + ")");
        }
    }

    /** Objects on the heap: the default. */
    public static StateBackendConfig heap() {
        return new StateBackendConfig(Kind.HEAP, null, DEFAULT_BLOCK_CACHE, DEFAULT_WRITE_BUFFER);
    }

    /** RocksDB with 64 MiB per instance (16 MiB of it for write buffers), no local directory. */
    public static StateBackendConfig rocksDb() {
        return new StateBackendConfig(
                Kind.ROCKSDB, null, DEFAULT_BLOCK_CACHE, DEFAULT_WRITE_BUFFER);
    }

    /** A backend by its name as a user types it: {@code heap} or {@code rocksdb}. */
    public static StateBackendConfig named(String name) {
        return switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "heap" -> heap();
            case "rocksdb" -> rocksDb();
            default ->
                    throw new InvalidJobException(
                            "state backend '" + name + "' is unknown; use heap or rocksdb");
        };
    }

    public StateBackendConfig withLocalDir(Path dir) {
        return new StateBackendConfig(kind, dir, blockCacheBytes, writeBufferBytes);
    }

    public StateBackendConfig withMemory(long blockCache, long writeBuffers) {
        return new StateBackendConfig(kind, localDir, blockCache, writeBuffers);
    }

    public boolean isRocksDb() {
        return kind == Kind.ROCKSDB;
    }
}
