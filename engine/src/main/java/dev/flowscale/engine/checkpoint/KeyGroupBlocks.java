package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.StateCodec;
import dev.flowscale.engine.state.StateEncoding;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads key-group blocks (see {@link InstanceStateFile}): checks them when a snapshot is read,
 * before any task starts, and loads them into a keyed state backend when a task restores. Every
 * count and length in a block is checked against the bytes left in it before anything is read or
 * allocated, so a damaged field is refused however large it claims to be.
 */
public final class KeyGroupBlocks {
    /** A state's header: its name (UTF, at least 2 bytes), kind and entry count. */
    private static final int MIN_STATE_BYTES = 7;

    /** An entry: a key (at least its tag) and its value's length. */
    private static final int MIN_ENTRY_BYTES = 5;

    private KeyGroupBlocks() {}

    /**
     * The entries of one state in one key group, as {@link KeyedStateBackend#restore} takes them.
     */
    public record StateEntries(
            String name, StateDescriptor.Kind kind, HashMap<Object, Object> entries) {}

    /**
     * Checks that a block parses to its last byte and decodes it in the same walk: keys, and values
     * that need no declared type, straight from the block; other values stay encoded until their
     * state is declared. Called by {@link SnapshotReader} for each block it restores.
     *
     * @throws StateFileInput.DamagedLengthException naming the key group and the field
     */
    static List<StateEntries> decode(byte[] block, int keyGroup)
            throws StateFileInput.DamagedLengthException {
        try {
            return walk(block);
        } catch (IOException e) {
            throw new StateFileInput.DamagedLengthException(
                    "key group " + keyGroup + ": " + e.getMessage());
        } catch (EngineException e) {
            // A key of a type this build cannot restore: refused with the snapshot, not when a task
            // starts.
            throw new SnapshotException("key group " + keyGroup + ": " + e.getMessage(), e);
        }
    }

    /** Loads decoded key groups into a backend, taking their maps as they are. */
    public static void restoreDecoded(
            KeyedStateBackend backend, Map<Integer, List<StateEntries>> groups) {
        groups.forEach(
                (group, states) ->
                        states.forEach(
                                s -> backend.restore(s.name(), s.kind(), group, s.entries())));
    }

    /**
     * Decodes encoded blocks (as {@link InstanceStateFile#keyGroupBlock} writes them) into a
     * backend.
     */
    public static void restoreInto(
            KeyedStateBackend backend, Map<Integer, byte[]> blocks, Class<?> keyType) {
        for (Map.Entry<Integer, byte[]> block : blocks.entrySet()) {
            try {
                restoreDecoded(backend, Map.of(block.getKey(), walk(block.getValue())));
            } catch (IOException | RuntimeException e) {
                throw new SnapshotException(
                        "operator '"
                                + backend.operator()
                                + "': key group "
                                + block.getKey()
                                + " of the snapshot cannot be read ("
                                + e.getMessage()
                                + ")",
                        e);
            }
        }
    }

    private static List<StateEntries> walk(byte[] block) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(block));
        List<StateEntries> result = new ArrayList<>();
        try {
            int states = count(in, "states", MIN_STATE_BYTES);
            for (int s = 0; s < states; s++) {
                String name = in.readUTF();
                int kind = in.readByte();
                if (kind < 0 || kind >= StateDescriptor.Kind.values().length) {
                    throw new IOException("state '" + name + "' has an unknown kind " + kind);
                }
                StateDescriptor.Kind k = StateDescriptor.Kind.values()[kind];
                int entries = count(in, "entries of state '" + name + "'", MIN_ENTRY_BYTES);
                HashMap<Object, Object> map = new HashMap<>(entries * 4 / 3 + 1);
                for (int e = 0; e < entries; e++) {
                    map.put(key(in, name), value(in, block, name, k));
                }
                result.add(new StateEntries(name, k, map));
            }
        } catch (EOFException e) {
            throw new IOException(
                    e.getMessage() == null ? "the block ends early" : e.getMessage(), e);
        }
        if (in.available() > 0) {
            throw new IOException(
                    "the block has " + in.available() + " bytes after its last entry");
        }
        return result;
    }

    private static int count(DataInputStream in, String what, int minBytes) throws IOException {
        int n = in.readInt();
        if (n < 0 || (long) n * minBytes > in.available()) {
            throw new IOException(
                    "the count of "
                            + what
                            + " says "
                            + n
                            + " but only "
                            + in.available()
                            + " bytes remain in the block");
        }
        return n;
    }

    private static Object key(DataInputStream in, String state) throws IOException {
        try {
            return StateCodec.read(in, null);
        } catch (IOException e) {
            throw new IOException(
                    "a key of state '"
                            + state
                            + "': "
                            + (e.getMessage() == null ? "the block ends early" : e.getMessage()),
                    e);
        }
    }

    /** A value decoded in place if it needs no declared type, else a copy of its bytes. */
    private static Object value(
            DataInputStream in, byte[] block, String state, StateDescriptor.Kind kind)
            throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException(
                    "the length of a value of state '"
                            + state
                            + "' says "
                            + length
                            + " bytes but only "
                            + in.available()
                            + " remain in the block");
        }
        int offset = block.length - in.available();
        in.skipNBytes(length);
        try {
            Object decoded = StateEncoding.decodeSelfDescribing(kind, block, offset, length);
            return decoded != null ? decoded : Arrays.copyOfRange(block, offset, offset + length);
        } catch (EOFException e) {
            throw new IOException("a value of state '" + state + "' ends before its length", e);
        } catch (IOException e) {
            throw new IOException("a value of state '" + state + "': " + e.getMessage(), e);
        }
    }
}
