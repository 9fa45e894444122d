package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
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

    /** What a walk over a block finds, entry by entry. */
    private interface EntryVisitor {
        void entry(String state, StateDescriptor.Kind kind, Object key, byte[] value);
    }

    /**
     * Checks that a block parses to its last byte; called by {@link SnapshotReader} for each block.
     *
     * @throws StateFileInput.DamagedLengthException naming the key group and the field
     */
    static void verify(byte[] block, int keyGroup) throws StateFileInput.DamagedLengthException {
        try {
            walk(block, (state, kind, key, value) -> {});
        } catch (IOException e) {
            throw new StateFileInput.DamagedLengthException(
                    "key group " + keyGroup + ": " + e.getMessage());
        } catch (EngineException e) {
            // A key of a type this build cannot restore: refused with the snapshot, not when a task
            // starts.
            throw new SnapshotException("key group " + keyGroup + ": " + e.getMessage(), e);
        }
    }

    public static void restoreInto(
            KeyedStateBackend backend, Map<Integer, byte[]> blocks, Class<?> keyType) {
        for (Map.Entry<Integer, byte[]> block : blocks.entrySet()) {
            try {
                walk(
                        block.getValue(),
                        (state, kind, key, value) ->
                                backend.restore(state, kind, block.getKey(), key, value));
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

    private static void walk(byte[] block, EntryVisitor visitor) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(block));
        try {
            int states = count(in, "states", MIN_STATE_BYTES);
            for (int s = 0; s < states; s++) {
                String name = in.readUTF();
                int kind = in.readByte();
                if (kind < 0 || kind >= StateDescriptor.Kind.values().length) {
                    throw new IOException("state '" + name + "' has an unknown kind " + kind);
                }
                int entries = count(in, "entries of state '" + name + "'", MIN_ENTRY_BYTES);
                for (int e = 0; e < entries; e++) {
                    visitor.entry(
                            name,
                            StateDescriptor.Kind.values()[kind],
                            key(in, name),
                            value(in, name));
                }
            }
        } catch (EOFException e) {
            throw new IOException(
                    e.getMessage() == null ? "the block ends early" : e.getMessage(), e);
        }
        if (in.available() > 0) {
            throw new IOException(
                    "the block has " + in.available() + " bytes after its last entry");
        }
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

    private static byte[] value(DataInputStream in, String state) throws IOException {
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
        byte[] value = new byte[length];
        in.readFully(value);
        return value;
    }
}
