package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.InstanceRates;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.engine.source.RateProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An operator costing c = 10 ms per record can process 1/c = 100 records/s per instance. DS2's true
 * processing rate must say so whether the operator is starved or backpressured, while its observed
 * rate shows only what it was given.
 */
class UsefulTimeAccuracyTest {
    private static final Duration COST = Duration.ofMillis(10);
    private static final double CAPACITY = 100.0;

    @Test
    void trueRateMatchesCapacityWhenStarved() throws Exception {
        JobBuilder job = JobBuilder.named("starved");
        job.source("src", Sources.generator(RateProfile.constant(60), seq -> seq))
                .map("costly", x -> x)
                .parallelism(2)
                .cost(SyntheticCost.blocking(COST))
                .sink("sink", Sinks.counting());
        OperatorRates rates = measure(job);
        assertTrueRateIsCapacity(rates);
        assertThat(rates.observedProcessingRate() / 2)
                .as("observed per instance")
                .isLessThan(0.5 * CAPACITY);
    }

    @Test
    void trueRateMatchesCapacityWhenBackpressured() throws Exception {
        JobBuilder job = JobBuilder.named("backpressured");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .map("costly", x -> x)
                .parallelism(2)
                .cost(SyntheticCost.blocking(COST))
                .sink("sink", Sinks.counting())
                .cost(SyntheticCost.blocking(Duration.ofMillis(20)));
        OperatorRates rates = measure(job);
        assertTrueRateIsCapacity(rates);
        assertThat(rates.observedProcessingRate() / 2)
                .as("observed per instance")
                .isLessThan(0.5 * CAPACITY);
        assertThat(rates.backpressureRatio()).as("blocked on output").isGreaterThan(0.5);
    }

    private static void assertTrueRateIsCapacity(OperatorRates rates) {
        for (InstanceRates instance : rates.instances()) {
            assertThat(instance.trueProcessingRate())
                    .as("true rate of instance " + instance.instance())
                    .isBetween(0.9 * CAPACITY, 1.1 * CAPACITY);
        }
    }

    private static OperatorRates measure(JobBuilder job) throws Exception {
        try (RunningJob running =
                job.start(JobConfig.defaults().withBatchSize(32).withChannelCapacity(2))) {
            Thread.sleep(1000);
            JobMetricsSnapshot start = running.metrics();
            Thread.sleep(3000);
            return running.metrics().ratesSince(start).get("costly");
        }
    }
}
