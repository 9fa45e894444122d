package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.ThreadSchedule;
import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * The calling thread's own run delay (the time it was runnable but waited for a core), read from
 * its schedstat file kept open, so that a read costs one system call rather than opening a file. A
 * {@link RandomAccessFile}, not a channel: an interrupt (a cancel) must not close it under the
 * reader. Open and read it on the thread it measures.
 */
final class OwnRunDelay implements AutoCloseable {
    /** What {@link #nanos} answers where the delay cannot be read. */
    static final long UNKNOWN = -1;

    private final byte[] buffer = new byte[128];
    private RandomAccessFile file;

    private OwnRunDelay(RandomAccessFile file) {
        this.file = file;
    }

    /** The run delay of the calling thread; one that answers {@link #UNKNOWN} where not Linux. */
    static OwnRunDelay ofCurrentThread() {
        long tid = ThreadSchedule.currentThreadId();
        if (tid < 0) {
            return new OwnRunDelay(null);
        }
        try {
            return new OwnRunDelay(
                    new RandomAccessFile("/proc/self/task/" + tid + "/schedstat", "r"));
        } catch (IOException | SecurityException e) {
            return new OwnRunDelay(null);
        }
    }

    /** Nanoseconds the thread has waited for a core so far, or {@link #UNKNOWN}. */
    long nanos() {
        if (file == null) {
            return UNKNOWN;
        }
        try {
            file.seek(0);
            int length = file.read(buffer);
            return length <= 0 ? UNKNOWN : secondField(length);
        } catch (IOException e) {
            close();
            return UNKNOWN;
        }
    }

    /** The file reads "run-time run-delay timeslices"; the delay is the second number. */
    private long secondField(int length) {
        int i = 0;
        while (i < length && buffer[i] != ' ') {
            i++;
        }
        long value = 0;
        int digits = 0;
        for (i++; i < length && buffer[i] >= '0' && buffer[i] <= '9'; i++, digits++) {
            value = value * 10 + (buffer[i] - '0');
        }
        return digits == 0 ? UNKNOWN : value;
    }

    @Override
    public void close() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                // Read-only: nothing was lost.
            }
            file = null;
        }
    }
}
