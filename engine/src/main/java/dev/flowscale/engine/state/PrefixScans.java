package dev.flowscale.engine.state;

import java.io.IOException;
import java.util.Arrays;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Iteration over the entries of a RocksDB column family that share a key prefix (a key group, or a
 * key of a map state), bounded above by the prefix's successor so that RocksDB stops at its end.
 */
final class PrefixScans {
    private PrefixScans() {}

    /** Receives entries under a prefix: the key after the prefix, and the value. */
    interface Visitor {
        /** Returns false to stop the scan. */
        boolean visit(byte[] suffix, byte[] value) throws IOException;
    }

    /** Visits, in key order, the entries whose keys start with {@code prefix}; returns how many. */
    static int scan(RocksDB db, ColumnFamilyHandle column, byte[] prefix, Visitor visitor)
            throws IOException, RocksDBException {
        int count = 0;
        try (Slice upper = new Slice(RocksDbStates.successor(prefix));
                ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(column, read)) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                count++;
                if (!visitor.visit(
                        Arrays.copyOfRange(key, prefix.length, key.length), it.value())) {
                    break;
                }
            }
            it.status();
        }
        return count;
    }

    /** Deletes every entry whose key starts with {@code prefix}, in one batch. */
    static void delete(RocksDB db, ColumnFamilyHandle column, WriteOptions write, byte[] prefix)
            throws RocksDBException {
        try (Slice upper = new Slice(RocksDbStates.successor(prefix));
                ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
                RocksIterator it = db.newIterator(column, read);
                WriteBatch batch = new WriteBatch()) {
            // Point deletes, not a range tombstone: clear() runs per key, and many range
            // tombstones slow every later read of the column.
            for (it.seek(prefix); it.isValid(); it.next()) {
                batch.delete(column, it.key());
            }
            it.status();
            db.write(write, batch);
        }
    }
}
