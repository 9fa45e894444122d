package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a task reports when it has written its part of a snapshot: the file (a plain name inside the
 * snapshot directory), its length and CRC-32, the key groups it holds and how many source splits it
 * holds (0 for operators other than sources). {@code rocksDb} is set only by an incremental
 * checkpoint of a RocksDB instance: its keyed state is then in those RocksDB files, not in {@code
 * file} (which holds no key groups).
 */
public record TaskStateHandle(
        String operatorId,
        int instance,
        String file,
        long bytes,
        long crc32,
        int keyGroupStart,
        int keyGroupEnd,
        int splits,
        @JsonInclude(JsonInclude.Include.NON_NULL) RocksDbSnapshot rocksDb) {
    /** The number of key groups {@code file} itself holds. */
    int keyGroupsInFile() {
        return rocksDb != null ? 0 : Math.max(0, keyGroupEnd - keyGroupStart + 1);
    }
}
