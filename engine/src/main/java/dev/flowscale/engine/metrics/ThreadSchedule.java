package dev.flowscale.engine.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Linux scheduler's account of one thread ({@code /proc/self/task/<tid>/schedstat}): the time
 * it ran on a core and the time it was runnable but waited for one (run delay). The run delay is
 * the time a loaded machine or a throttled pod adds to a thread's wall-clock useful time. A thread
 * tells its own id once, at its start ({@link #currentThreadId}); where the files are absent (not
 * Linux, schedstat not built in) the id is -1 and the run delay null, not known.
 */
public final class ThreadSchedule {

    private static final Path SELF = Path.of("/proc/thread-self");

    private ThreadSchedule() {}

    /** The calling thread's kernel id, or -1 where it cannot be read. */
    public static long currentThreadId() {
        try {
            // "/proc/thread-self" links to "<pid>/task/<tid>"
            return Long.parseLong(Files.readSymbolicLink(SELF).getFileName().toString());
        } catch (IOException | NumberFormatException | UnsupportedOperationException e) {
            return -1;
        } catch (SecurityException e) {
            return -1;
        }
    }

    /** Nanoseconds the thread was runnable but not running, or null where not known. */
    public static Long runDelayNanos(long threadId) {
        if (threadId < 0) {
            return null;
        }
        try {
            String[] fields =
                    Files.readString(Path.of("/proc/self/task/" + threadId + "/schedstat"))
                            .trim()
                            .split("\\s+");
            return fields.length >= 2 ? Long.valueOf(fields[1]) : null;
        } catch (IOException | NumberFormatException | SecurityException e) {
            return null;
        }
    }
}
