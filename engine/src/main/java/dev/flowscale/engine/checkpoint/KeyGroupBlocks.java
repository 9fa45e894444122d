package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Map;

/** Loads restored key-group blocks (see {@link InstanceStateFile}) into a keyed state backend. */
public final class KeyGroupBlocks {
    private KeyGroupBlocks() {
    }

    public static void restoreInto(KeyedStateBackend backend, Map<Integer, byte[]> blocks, Class<?> keyType) {
        for (Map.Entry<Integer, byte[]> block : blocks.entrySet()) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(block.getValue()))) {
                int states = in.readInt();
                for (int s = 0; s < states; s++) {
                    String name = in.readUTF();
                    StateDescriptor.Kind kind = StateDescriptor.Kind.values()[in.readByte()];
                    int entries = in.readInt();
                    for (int e = 0; e < entries; e++) {
                        Object key = StateCodec.read(in, keyType);
                        int length = in.readInt();
                        if (length < 0 || length > in.available()) {
                            throw new IOException("a value length of " + length + " bytes exceeds the "
                                    + in.available() + " left in the block");
                        }
                        byte[] value = new byte[length];
                        in.readFully(value);
                        backend.restore(name, kind, block.getKey(), key, value);
                    }
                }
            } catch (IOException | RuntimeException e) {
                throw new SnapshotException("operator '" + backend.operator() + "': key group " + block.getKey()
                        + " of the snapshot cannot be read (" + e.getMessage() + ")", e);
            }
        }
    }
}
