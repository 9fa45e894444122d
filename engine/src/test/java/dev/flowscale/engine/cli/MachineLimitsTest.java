package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import org.junit.jupiter.api.Test;

class MachineLimitsTest {
    private static final long GIB = 1L << 30;

    /** The counting job with {@code count} instances of its keyed operator. */
    private static JobGraph counting(int keyGroups, int count) {
        JobBuilder job = JobBuilder.named(CountingJob.NAME);
        job.keyGroups(keyGroups);
        job.source(CountingJob.SOURCE, CountingJob.source(null, 1))
                .map(CountingJob.MAP, x -> x)
                .keyBy(seq -> "k" + seq)
                .process(CountingJob.COUNT, CountingJob.Count::new)
                .sink("sink", Sinks.counting());
        job.parallelism(CountingJob.COUNT, count);
        return job.build();
    }

    @Test
    void thirtyTwoThousandInstancesOnTwoCoresAreRefusedNamingTheLimit() {
        JobGraph graph = counting(32_768, 32_768);
        assertThatThrownBy(() -> MachineLimits.check(graph, StateBackendConfig.heap(), 2, 8 * GIB))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("needs 32771 threads")
                .hasMessageContaining("at most 128 (64 threads per core x 2 cores)")
                .hasMessageContaining("lower --parallelism");
    }

    @Test
    void aJobWithinTheLimitsPasses() {
        JobGraph graph = counting(128, 100);
        assertThatCode(() -> MachineLimits.check(graph, StateBackendConfig.rocksDb(), 2, 8 * GIB))
                .doesNotThrowAnyException();
    }

    @Test
    void rocksDbMemoryBeyondThePhysicalMemoryIsRefusedNamingTheLimit() {
        JobGraph graph = counting(128, 100);
        assertThatThrownBy(
                        () -> MachineLimits.check(graph, StateBackendConfig.rocksDb(), 2, 4 * GIB))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining(
                        "needs 6400 MB of RocksDB memory (100 keyed instances x 64 MB")
                .hasMessageContaining("this machine has 4096 MB")
                .hasMessageContaining("--rocksdb-memory-mb");
    }
}
