package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/** How keyed entries are laid out in a {@link RocksDbKeyedStore}. */
final class RocksDbStates {
    private RocksDbStates() {}

    /** A RocksDB key: the key group (2 bytes, big-endian), then the key as snapshots encode it. */
    static byte[] key(int keyGroup, Object key) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeShort(keyGroup);
            StateCodec.write(out, key);
        } catch (IOException e) {
            throw new EngineException("cannot encode key " + key + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /**
     * Writes restored entries (decoded values are encoded again, encoded ones kept as they are).
     */
    static void restore(
            RocksDbKeyedStore store,
            RocksDbKeyedStore.Column column,
            int keyGroup,
            HashMap<Object, Object> entries) {
        Map<byte[], byte[]> batch = new IdentityHashMap<>(entries.size());
        for (Map.Entry<Object, Object> e : entries.entrySet()) {
            byte[] value =
                    e.getValue() instanceof byte[] encoded
                            ? encoded
                            : StateEncoding.encode(column.kind(), e.getValue());
            batch.put(key(keyGroup, e.getKey()), value);
        }
        store.putAll(column, batch);
    }
}
