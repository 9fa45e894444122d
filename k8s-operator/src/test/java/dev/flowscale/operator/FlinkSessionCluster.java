package dev.flowscale.operator;

import dev.flowscale.flink.demo.LocalFlinkCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * A Flink session cluster for the savepoint-path ITs ({@link LocalFlinkCluster}, default scheduler)
 * whose close waits a bounded time: after a job was stopped with a savepoint and its jar run again,
 * Flink 2.3's MiniCluster close has been seen to wait forever on this machine (with the operator's
 * loop or its executor alike), which would hide the test's own result; the cluster's threads then
 * end with the test JVM. A close that times out writes every thread's stack and locks (as jstack
 * does) to {@value #DUMP} in the working folder, so the wait can be read.
 */
record FlinkSessionCluster(LocalFlinkCluster flink) implements AutoCloseable {
    static final Duration CLOSE = Duration.ofMinutes(1);
    static final String DUMP = "target/minicluster-close-threads.txt";

    static FlinkSessionCluster start() throws Exception {
        return new FlinkSessionCluster(LocalFlinkCluster.start(8, false));
    }

    @Override
    public void close() throws Exception {
        try {
            flink.cluster().closeAsync().get(CLOSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.err.println(
                    "Flink's MiniCluster did not close within " + CLOSE + ": threads in " + DUMP);
            writeThreadDump(Path.of(DUMP));
        }
    }

    private static void writeThreadDump(Path file) throws IOException {
        ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
        String dump =
                Arrays.stream(threads)
                        .map(FlinkSessionCluster::describe)
                        .collect(Collectors.joining("\n"));
        Files.writeString(file, dump);
    }

    /** A thread's name, state, the lock it waits for and its whole stack. */
    private static String describe(ThreadInfo t) {
        StringBuilder out =
                new StringBuilder("\"" + t.getThreadName() + "\" " + t.getThreadState());
        if (t.getLockInfo() != null) {
            out.append(" on ")
                    .append(t.getLockInfo())
                    .append(" owned by ")
                    .append(t.getLockOwnerName());
        }
        for (StackTraceElement frame : t.getStackTrace()) {
            out.append("\n\tat ").append(frame);
        }
        return out.append('\n').toString();
    }
}
