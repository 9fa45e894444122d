package dev.flowscale.operator;

import dev.flowscale.flink.demo.LocalFlinkCluster;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Flink session cluster for the savepoint-path ITs ({@link LocalFlinkCluster}, default scheduler)
 * whose close waits a bounded time: after a job was stopped with a savepoint and its jar run again,
 * Flink 2.3's MiniCluster close has been seen to wait forever on this machine (with the operator's
 * loop or its executor alike), which would hide the test's own result; the cluster's threads then
 * end with the test JVM.
 */
record FlinkSessionCluster(LocalFlinkCluster flink) implements AutoCloseable {
    static final Duration CLOSE = Duration.ofMinutes(1);

    static FlinkSessionCluster start() throws Exception {
        return new FlinkSessionCluster(LocalFlinkCluster.start(8, false));
    }

    @Override
    public void close() throws Exception {
        try {
            flink.cluster().closeAsync().get(CLOSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.err.println("Flink's MiniCluster did not close within " + CLOSE);
        }
    }
}
