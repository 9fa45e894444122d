package dev.flowscale.engine.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.api.EngineException;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes keys and state values without Java serialization, so that a snapshot survives code changes
 * that keep the state's shape. Strings, numbers and booleans have compact tagged encodings; every
 * other type is JSON through Jackson and read back into the type its state descriptor (or keyBy)
 * declares.
 */
public final class StateCodec {
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final byte NULL = 0;
    private static final byte STRING = 1;
    private static final byte LONG = 2;
    private static final byte INT = 3;
    private static final byte DOUBLE = 4;
    private static final byte BOOLEAN = 5;
    private static final byte JSON_VALUE = 6;

    /** Bytes allocated ahead of those read; see {@link #readBytes}. */
    private static final int READ_CHUNK = 1 << 16;

    private StateCodec() {}

    public static void write(DataOutput out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof String s) {
            out.writeByte(STRING);
            writeString(out, s);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else {
            out.writeByte(JSON_VALUE);
            byte[] bytes = JSON.writeValueAsBytes(value);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    /** Reads a value written by {@link #write}; JSON values become {@code type}. */
    public static Object read(DataInput in, Class<?> type) throws IOException {
        byte tag = in.readByte();
        return tag == JSON_VALUE ? readJson(in, type) : readBuiltIn(in, tag);
    }

    /**
     * Reads a value written by {@link #write} if it needs no declared type (no JSON); returns
     * {@link #NEEDS_TYPE} at a JSON value, whose bytes are then left unread.
     */
    public static Object readSelfDescribing(DataInput in) throws IOException {
        byte tag = in.readByte();
        return tag == JSON_VALUE ? NEEDS_TYPE : readBuiltIn(in, tag);
    }

    private static Object readBuiltIn(DataInput in, byte tag) throws IOException {
        return switch (tag) {
            case NULL -> null;
            case STRING -> readString(in);
            case LONG -> in.readLong();
            case INT -> in.readInt();
            case DOUBLE -> in.readDouble();
            case BOOLEAN -> in.readBoolean();
            default -> throw new IOException("unknown value tag " + tag + "; the file is corrupt");
        };
    }

    /**
     * The length of the one value {@link #write} wrote at {@code offset} of {@code bytes}, read
     * from its tag (and length, for strings and JSON) without decoding it.
     *
     * @throws IOException if the bytes end before the value does or its tag is unknown
     */
    public static int encodedLength(byte[] bytes, int offset) throws IOException {
        if (offset >= bytes.length) {
            throw new IOException("a value starts at byte " + offset + " but the data ends first");
        }
        int length =
                switch (bytes[offset]) {
                    case NULL -> 1;
                    case LONG, DOUBLE -> 9;
                    case INT -> 5;
                    case BOOLEAN -> 2;
                    case STRING, JSON_VALUE -> 5 + lengthAt(bytes, offset + 1);
                    default ->
                            throw new IOException(
                                    "unknown value tag " + bytes[offset] + "; the data is corrupt");
                };
        if (length < 0 || offset + length > bytes.length) {
            throw new IOException(
                    "a value at byte " + offset + " says " + length + " bytes but fewer remain");
        }
        return length;
    }

    private static int lengthAt(byte[] bytes, int offset) throws IOException {
        if (offset + 4 > bytes.length) {
            throw new IOException("a length at byte " + offset + " is cut off");
        }
        return ((bytes[offset] & 0xff) << 24)
                | ((bytes[offset + 1] & 0xff) << 16)
                | ((bytes[offset + 2] & 0xff) << 8)
                | (bytes[offset + 3] & 0xff);
    }

    /** What {@link #readSelfDescribing} returns for a value that needs its declared type. */
    public static final Object NEEDS_TYPE = new Object();

    private static Object readJson(DataInput in, Class<?> type) throws IOException {
        byte[] bytes = readBytes(in, "a JSON value");
        if (type == null || type == Object.class) {
            throw new EngineException(
                    "a key of a non-built-in type cannot be restored: keyed state supports keys "
                            + "that are strings, longs, integers, doubles or booleans; key by one of those (e.g. an id)");
        }
        return JSON.readValue(bytes, type);
    }

    /** Strings longer than writeUTF's 64 KB limit are fine here. */
    static void writeString(DataOutput out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readString(DataInput in) throws IOException {
        return new String(readBytes(in, "a string"), StandardCharsets.UTF_8);
    }

    /**
     * Reads a length-prefixed byte array, allocating only as its bytes arrive: a damaged length
     * runs out of data (an EOFException naming it) instead of allocating what it claims, which
     * under a small heap was an OutOfMemoryError (issue 14).
     */
    private static byte[] readBytes(DataInput in, String what) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("the length of " + what + " says " + length + " bytes");
        }
        byte[] bytes = new byte[Math.min(length, READ_CHUNK)];
        int filled = 0;
        try {
            while (true) {
                in.readFully(bytes, filled, bytes.length - filled);
                filled = bytes.length;
                if (filled == length) {
                    return bytes;
                }
                bytes = Arrays.copyOf(bytes, (int) Math.min(length, 2L * filled));
            }
        } catch (EOFException e) {
            throw new EOFException(
                    "the length of " + what + " says " + length + " bytes but the data ends first");
        }
    }

    public static ObjectMapper json() {
        return JSON;
    }
}
