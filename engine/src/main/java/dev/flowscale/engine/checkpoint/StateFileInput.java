package dev.flowscale.engine.checkpoint;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CheckedInputStream;
import java.util.zip.Checksum;

/**
 * Reads one state file and knows how many of its bytes are left, so that every length field is
 * checked against the bytes that remain BEFORE anything is allocated: a damaged length gives a
 * clear error, never an OutOfMemoryError.
 */
final class StateFileInput implements AutoCloseable {
    private final Counting counted;
    private final DataInputStream in;
    private final long size;

    /** Reads {@code file}, adding every byte that passes to {@code crc}. */
    StateFileInput(Path file, long size, Checksum crc) throws IOException {
        this.counted = new Counting(new CheckedInputStream(Files.newInputStream(file), crc));
        this.in = new DataInputStream(new BufferedInputStream(counted, 1 << 16));
        this.size = size;
    }

    DataInputStream data() {
        return in;
    }

    /** Bytes not yet read by the caller (the buffer's read-ahead is not counted as read). */
    long remaining() throws IOException {
        return size - (counted.count - in.available());
    }

    /** A length-prefixed byte array; the length must fit in what is left of the file. */
    byte[] bytes(String what) throws IOException {
        byte[] bytes = new byte[length(what)];
        in.readFully(bytes);
        return bytes;
    }

    private int length(String what) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > remaining()) {
            throw new DamagedLengthException(
                    "the length field of "
                            + what
                            + " says "
                            + length
                            + " bytes but only "
                            + remaining()
                            + " remain in the file");
        }
        return length;
    }

    /** Reads what is left, so that the checksum covers the whole file. */
    void drain() throws IOException {
        in.transferTo(OutputStream.nullOutputStream());
    }

    /** A count of items that each take at least {@code minBytes}; it must fit in what is left. */
    int count(String what, int minBytes) throws IOException {
        int n = in.readInt();
        if (n < 0 || (long) n * minBytes > remaining()) {
            throw new DamagedLengthException(
                    "the count of "
                            + what
                            + " says "
                            + n
                            + " but only "
                            + remaining()
                            + " bytes remain in the file");
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** A length or count that cannot be right for the file it is in. */
    static final class DamagedLengthException extends IOException {
        DamagedLengthException(String message) {
            super(message);
        }
    }

    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            count += Math.max(0, n);
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count += skipped;
            return skipped;
        }
    }
}
