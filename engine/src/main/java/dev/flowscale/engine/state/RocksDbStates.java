package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * How keyed entries are laid out in a {@link RocksDbKeyedStore}. Every RocksDB key starts with its
 * key group (2 bytes, big-endian) and the key as snapshots encode it. A value or list state has one
 * entry per key; a map state has one entry per map key, whose RocksDB key goes on with the encoded
 * map key and whose value is the encoded map value, so that reading or writing one map key costs
 * that entry only. The encodings are self-delimiting, so one key's entries are exactly those under
 * its prefix, and they sit together in key order.
 */
final class RocksDbStates {
    private RocksDbStates() {}

    /** A RocksDB key: the key group (2 bytes, big-endian), then the key as snapshots encode it. */
    static byte[] key(int keyGroup, Object key) {
        try {
            return EncodeBuffer.encode(
                    out -> {
                        out.writeShort(keyGroup);
                        StateCodec.write(out, key);
                    });
        } catch (IOException e) {
            throw new EngineException("cannot encode key " + key + ": " + e.getMessage(), e);
        }
    }

    /** The RocksDB key of one map key of a map state: the key's prefix, then the map key. */
    static byte[] mapKey(byte[] keyPrefix, Object mapKey) {
        return concat(keyPrefix, encode(mapKey));
    }

    /** One value (a map value, a map key) as snapshots encode it. */
    static byte[] encode(Object value) {
        try {
            return EncodeBuffer.encode(out -> StateCodec.write(out, value));
        } catch (IOException e) {
            throw new EngineException("cannot encode " + value + ": " + e.getMessage(), e);
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** The smallest byte string above every string that starts with {@code prefix}. */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] next = Arrays.copyOf(prefix, i + 1);
                next[i]++;
                return next;
            }
        }
        // Never reached: keys start with a key group below 32768, whose first byte is not 0xff.
        throw new IllegalArgumentException("a prefix of 0xff bytes only has no successor");
    }

    /**
     * Writes restored entries (decoded values are encoded again, encoded ones kept as they are); a
     * map state's value is split into one entry per map key.
     */
    static void restore(
            RocksDbKeyedStore store,
            RocksDbKeyedStore.Column column,
            int keyGroup,
            HashMap<Object, Object> entries) {
        Map<byte[], byte[]> batch = new IdentityHashMap<>(entries.size());
        for (Map.Entry<Object, Object> e : entries.entrySet()) {
            byte[] key = key(keyGroup, e.getKey());
            if (column.kind() == dev.flowscale.engine.api.StateDescriptor.Kind.MAP) {
                splitMap(key, e.getValue(), batch);
            } else {
                batch.put(
                        key,
                        e.getValue() instanceof byte[] encoded
                                ? encoded
                                : StateEncoding.encode(column.kind(), e.getValue()));
            }
        }
        store.putAll(column, batch);
    }

    /** Adds one entry per map key of a map value, decoded or as a snapshot encodes it. */
    private static void splitMap(byte[] key, Object map, Map<byte[], byte[]> batch) {
        if (map instanceof Map<?, ?> decoded) {
            decoded.forEach((k, v) -> batch.put(mapKey(key, k), encode(v)));
            return;
        }
        byte[] encoded = (byte[]) map;
        try {
            int n = java.nio.ByteBuffer.wrap(encoded, 0, 4).getInt();
            int at = 4;
            for (int i = 0; i < n; i++) {
                int keyLength = StateCodec.encodedLength(encoded, at);
                int valueLength = StateCodec.encodedLength(encoded, at + keyLength);
                batch.put(
                        concat(key, Arrays.copyOfRange(encoded, at, at + keyLength)),
                        Arrays.copyOfRange(encoded, at + keyLength, at + keyLength + valueLength));
                at += keyLength + valueLength;
            }
            if (at != encoded.length) {
                throw new IOException((encoded.length - at) + " bytes follow the last map entry");
            }
        } catch (IOException | RuntimeException e) {
            throw new EngineException(
                    "a restored map value cannot be split into its entries ("
                            + e.getMessage()
                            + "); the snapshot is corrupt",
                    e);
        }
    }

    /**
     * Turns a map state's entries of one key group, in key order, back into one map value per key
     * as snapshots encode it (an entry count, then each map key and value): bytes are copied, not
     * decoded.
     */
    static final class MapRegrouper {
        private final RocksDbKeyedStore.EntryConsumer consumer;
        private final ByteArrayOutputStream value = new ByteArrayOutputStream(256);
        private byte[] currentKey;
        private int entries;
        private int keys;

        MapRegrouper(RocksDbKeyedStore.EntryConsumer consumer) {
            this.consumer = consumer;
        }

        /** Takes one entry: its RocksDB key after the key group, and its value. */
        boolean entry(byte[] suffix, byte[] mapValue) throws IOException {
            int keyLength = StateCodec.encodedLength(suffix, 0);
            if (currentKey == null
                    || !Arrays.equals(currentKey, 0, currentKey.length, suffix, 0, keyLength)) {
                flush();
                currentKey = Arrays.copyOf(suffix, keyLength);
            }
            value.write(suffix, keyLength, suffix.length - keyLength);
            value.write(mapValue);
            entries++;
            return true;
        }

        /** Hands over the last key's map; returns the number of keys handed over. */
        int finish() throws IOException {
            flush();
            return keys;
        }

        private void flush() throws IOException {
            if (currentKey == null) {
                return;
            }
            byte[] map = new byte[4 + value.size()];
            java.nio.ByteBuffer.wrap(map).putInt(entries);
            System.arraycopy(value.toByteArray(), 0, map, 4, value.size());
            consumer.entry(currentKey, map);
            keys++;
            entries = 0;
            value.reset();
            currentKey = null;
        }
    }
}
