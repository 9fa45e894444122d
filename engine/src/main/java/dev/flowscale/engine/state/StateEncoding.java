package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Encodes one key's value of a value, list or map state as bytes, and back. */
public final class StateEncoding {
    private StateEncoding() {}

    public static void encode(StateDescriptor.Kind kind, Object value, DataOutputStream out)
            throws IOException {
        switch (kind) {
            case VALUE -> StateCodec.write(out, value);
            case LIST -> {
                List<?> list = (List<?>) value;
                out.writeInt(list.size());
                for (Object element : list) {
                    StateCodec.write(out, element);
                }
            }
            case MAP -> {
                Map<?, ?> map = (Map<?, ?>) value;
                out.writeInt(map.size());
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    StateCodec.write(out, e.getKey());
                    StateCodec.write(out, e.getValue());
                }
            }
        }
    }

    public static byte[] encode(StateDescriptor.Kind kind, Object value) {
        try {
            return EncodeBuffer.encode(out -> encode(kind, value, out));
        } catch (IOException e) {
            throw new EngineException(
                    "cannot encode state value " + value + ": " + e.getMessage(), e);
        }
    }

    /**
     * Decodes a value whose encoding needs no declared type (strings, numbers, booleans and lists
     * or maps of them), straight from {@code length} bytes of {@code block} at {@code offset};
     * returns null if it holds a JSON value, which must wait for its state's descriptor.
     *
     * @throws IOException if the bytes are not one whole value of {@code kind}
     */
    public static Object decodeSelfDescribing(
            StateDescriptor.Kind kind, byte[] block, int offset, int length) throws IOException {
        ByteArrayInputStream bytes = new ByteArrayInputStream(block, offset, length);
        DataInputStream in = new DataInputStream(bytes);
        Object value =
                switch (kind) {
                    case VALUE -> StateCodec.readSelfDescribing(in);
                    case LIST -> readList(in);
                    case MAP -> readMap(in);
                };
        if (value == StateCodec.NEEDS_TYPE) {
            return null;
        }
        if (bytes.available() > 0) {
            throw new IOException(
                    "a " + kind + " value has " + bytes.available() + " bytes after its end");
        }
        return value;
    }

    private static Object readList(DataInputStream in) throws IOException {
        int n = count(in);
        List<Object> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object element = StateCodec.readSelfDescribing(in);
            if (element == StateCodec.NEEDS_TYPE) {
                return element;
            }
            list.add(element);
        }
        return list;
    }

    private static Object readMap(DataInputStream in) throws IOException {
        int n = count(in);
        Map<Object, Object> map = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Object key = StateCodec.readSelfDescribing(in);
            Object value = key == StateCodec.NEEDS_TYPE ? key : StateCodec.readSelfDescribing(in);
            if (value == StateCodec.NEEDS_TYPE) {
                return value;
            }
            map.put(key, value);
        }
        return map;
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException(
                    "the element count says " + n + " but " + in.available() + " bytes remain");
        }
        return n;
    }

    public static Object decode(StateDescriptor<?> descriptor, byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            return switch (descriptor.kind()) {
                case VALUE -> StateCodec.read(in, descriptor.valueType());
                case LIST -> {
                    int n = in.readInt();
                    List<Object> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(StateCodec.read(in, descriptor.valueType()));
                    }
                    yield list;
                }
                case MAP -> {
                    int n = in.readInt();
                    Map<Object, Object> map = new HashMap<>();
                    for (int i = 0; i < n; i++) {
                        map.put(
                                StateCodec.read(in, descriptor.keyType()),
                                StateCodec.read(in, descriptor.valueType()));
                    }
                    yield map;
                }
            };
        } catch (IOException e) {
            throw new EngineException(
                    "state '"
                            + descriptor.name()
                            + "': cannot decode a restored value as "
                            + descriptor.valueType().getSimpleName()
                            + " ("
                            + e.getMessage()
                            + "); the state's shape changed",
                    e);
        }
    }
}
