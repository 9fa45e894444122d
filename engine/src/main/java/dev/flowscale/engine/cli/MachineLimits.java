package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorKind;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.state.StateBackendConfig;
import java.lang.management.ManagementFactory;

/**
 * What this machine can run, checked before a job starts: one thread per operator instance, at most
 * {@value #THREADS_PER_CORE} per core; RocksDB's native memory, {@code --rocksdb-memory-mb} per
 * keyed instance, within the machine's physical memory. (Key groups and parallelism are checked
 * against each other by the graph.) A job past a limit is refused with one line naming the limit.
 */
public final class MachineLimits {
    /**
     * Operator instances per core: each is a thread that mostly waits on its channels, so many fit
     * a core, but beyond this the machine spends itself on scheduling (32,768 threads on two cores
     * drove the load average near 300).
     */
    public static final int THREADS_PER_CORE = 64;

    private MachineLimits() {}

    /** Refuses {@code graph} if this machine cannot run it with {@code backend}. */
    public static void check(JobGraph graph, StateBackendConfig backend) {
        check(graph, backend, Runtime.getRuntime().availableProcessors(), physicalMemoryBytes());
    }

    static void check(JobGraph graph, StateBackendConfig backend, int cores, long memoryBytes) {
        long threads = graph.operators().stream().mapToLong(OperatorNode::parallelism).sum();
        long allowed = (long) cores * THREADS_PER_CORE;
        if (threads > allowed) {
            throw new InvalidJobException(
                    "job '"
                            + graph.jobName()
                            + "' needs "
                            + threads
                            + " threads (one per operator instance) but this machine runs at most "
                            + allowed
                            + " ("
                            + THREADS_PER_CORE
                            + " threads per core x "
                            + cores
                            + " cores); lower --parallelism");
        }
        if (backend.isRocksDb()) {
            checkMemory(graph, backend, memoryBytes);
        }
    }

    private static void checkMemory(JobGraph graph, StateBackendConfig backend, long memory) {
        long keyed =
                graph.operators().stream()
                        .filter(o -> o.kind() == OperatorKind.KEYED_PROCESS)
                        .mapToLong(OperatorNode::parallelism)
                        .sum();
        long needed = keyed * backend.blockCacheBytes();
        if (memory > 0 && needed > memory) {
            throw new InvalidJobException(
                    "job '"
                            + graph.jobName()
                            + "' needs "
                            + (needed >> 20)
                            + " MB of RocksDB memory ("
                            + keyed
                            + " keyed instances x "
                            + (backend.blockCacheBytes() >> 20)
                            + " MB each) but this machine has "
                            + (memory >> 20)
                            + " MB; lower --rocksdb-memory-mb or --parallelism");
        }
    }

    /** The machine's physical memory; 0 where the JVM cannot say. */
    static long physicalMemoryBytes() {
        if (ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 0;
    }
}
