package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.testing.CountingJob;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each RocksDB instance exports its memory, its configured bound, keys and disk to Prometheus. */
class RocksDbMetricsTest {
    @Test
    void everyRocksDbInstanceReportsItsMemoryAndItsBound(@TempDir Path dir) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobGraph graph = CountingJob.graph(4_000, 200, Map.of(CountingJob.COUNT, 2));
        JobConfig config =
                JobConfig.defaults()
                        .withMeterRegistry(registry)
                        .withStateBackend(
                                StateBackendConfig.rocksDb()
                                        .withLocalDir(dir)
                                        .withMemory(8L << 20, 2L << 20));
        try (RunningJob job = RunningJob.start(graph, config)) {
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(20));
            String scrape = registry.scrape();
            for (String instance : new String[] {"0", "1"}) {
                String labels =
                        "{instance=\""
                                + instance
                                + "\",job=\""
                                + graph.jobName()
                                + "\",operator=\"count\"}";
                assertThat(scrape)
                        .contains(
                                "flowscale_state_rocksdb_memory_limit_bytes"
                                        + labels
                                        + " 8388608.0")
                        .contains("flowscale_state_rocksdb_write_buffers_bytes" + labels)
                        .contains("flowscale_state_rocksdb_keys" + labels)
                        .contains("flowscale_state_rocksdb_disk_bytes" + labels);
            }
            assertThat(value(scrape, "flowscale_state_rocksdb_write_buffers_bytes")).isPositive();
            assertThat(value(scrape, "flowscale_state_rocksdb_memory_bytes"))
                    .as("write buffers are charged to the bounded cache")
                    .isPositive();
        }
    }

    private static double value(String scrape, String metric) {
        return scrape.lines()
                .filter(l -> l.startsWith(metric + "{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
