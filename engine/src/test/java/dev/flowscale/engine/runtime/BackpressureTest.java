package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A fast source in front of a sink that takes 1 ms per record. */
class BackpressureTest {

    @Test
    void aSlowSinkThrottlesTheSourceAndBoundsRecordsInFlight() throws Exception {
        JobBuilder job = JobBuilder.named("backpressure");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .map("map", x -> x)
                .parallelism(2)
                .sink("sink", Sinks.counting())
                .parallelism(1)
                .cost(SyntheticCost.blocking(Duration.ofMillis(1)));
        JobConfig config = JobConfig.defaults().withBatchSize(64).withChannelCapacity(2);
        try (RunningJob running = job.start(config)) {
            long capacity = running.channelCapacityRecords();
            long maxInFlight = 0;
            long end = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            while (System.nanoTime() < end) {
                maxInFlight = Math.max(maxInFlight, running.queuedRecords());
                Thread.sleep(5);
            }
            JobMetricsSnapshot start = running.metrics();
            end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < end) {
                maxInFlight = Math.max(maxInFlight, running.queuedRecords());
                Thread.sleep(5);
            }
            Map<String, OperatorRates> rates = running.metrics().ratesSince(start);
            double source = rates.get("src").observedOutputRate();
            double sink = rates.get("sink").observedProcessingRate();

            // 1 ms per record caps the sink at 1000/s; a loaded machine may make it slower, never
            // faster
            assertThat(sink).as("sink rate").isBetween(500.0, 1050.0);
            assertThat(source)
                    .as("source follows the sink")
                    .isCloseTo(sink, org.assertj.core.data.Percentage.withPercentage(15));
            assertThat(rates.get("src").backpressureRatio())
                    .as("source mostly blocked")
                    .isGreaterThan(0.8);
            assertThat(maxInFlight)
                    .as("records in flight")
                    .isPositive()
                    .isLessThanOrEqualTo(capacity);
        }
    }

    @Test
    void withoutInstrumentationChannelsTakeWholeBatchesUpToTheirCapacity() throws Exception {
        JobBuilder job = JobBuilder.named("uninstrumented");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .map("map", x -> x)
                .parallelism(2)
                .sink("sink", Sinks.counting())
                .parallelism(1)
                .cost(SyntheticCost.blocking(Duration.ofMillis(1)));
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(64)
                        .withChannelCapacity(4)
                        .withInstrumentation(false);
        try (RunningJob running = job.start(config)) {
            long maxInFlight = 0;
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < end) {
                maxInFlight = Math.max(maxInFlight, running.queuedRecords());
                Thread.sleep(5);
            }
            // Four channels (src → 2 maps, 2 maps → sink); debloating without measurements would
            // keep each at its initial limit.
            assertThat(maxInFlight)
                    .as("records in flight")
                    .isGreaterThan(4L * InputGate.INITIAL_RECORD_LIMIT)
                    .isLessThanOrEqualTo(running.channelCapacityRecords());
        }
    }
}
