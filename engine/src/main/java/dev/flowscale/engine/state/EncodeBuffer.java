package dev.flowscale.engine.state;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Encodes one key or value at a time into a buffer kept per thread, and copies the bytes out once.
 * A fresh {@link ByteArrayOutputStream} per write grew through a copy at every doubling: in a
 * RocksDB job storing 1,000-byte values (the state benchmark, JFR allocation samples) those copies
 * were a sixth of all bytes allocated, more than the stored values themselves.
 */
final class EncodeBuffer extends ByteArrayOutputStream {
    /** A buffer grown past this by one large value is dropped after it, not kept for the thread. */
    private static final int KEPT_BYTES = 1 << 16;

    private static final ThreadLocal<EncodeBuffer> BUFFERS =
            ThreadLocal.withInitial(EncodeBuffer::new);

    private final DataOutputStream data = new DataOutputStream(this);
    private boolean inUse;

    /** Writes into a stream. */
    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private EncodeBuffer() {
        super(256);
    }

    /**
     * The bytes {@code writer} writes. Uses this thread's buffer, or a fresh one if an encoding is
     * already running on this thread (a value whose encoding encodes another).
     */
    static byte[] encode(Writer writer) throws IOException {
        EncodeBuffer buffer = BUFFERS.get();
        if (buffer.inUse) {
            EncodeBuffer nested = new EncodeBuffer();
            writer.write(nested.data);
            return nested.toByteArray();
        }
        buffer.inUse = true;
        try {
            buffer.reset();
            writer.write(buffer.data);
            return buffer.toByteArray();
        } finally {
            buffer.inUse = false;
            if (buffer.buf.length > KEPT_BYTES) {
                BUFFERS.remove();
            }
        }
    }
}
