package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A throttled source heads a chain with a costly operator. Between due records the source polls
 * empty and waits; a poll that finds records runs the chained operator inside it. The operator's
 * true processing rate, from its sampled share of the chain's useful time, must be what its records
 * took: neither the empty polls nor the poll that ends a wait may count as the source's time.
 */
class ThrottledSourceChainTest {
    private static final double RATE = 1_000;
    private static final long COST_NANOS = 300_000;
    private static final Duration WINDOW = Duration.ofSeconds(3);

    /** As {@link ChainedUsefulTimeAccuracyTest}: 20 % either way on a loaded machine. */
    private static final double BELOW = 0.80;

    private static final double ABOVE = 1.20;

    private final LongAdder tookNanos = new LongAdder();

    @Test
    void theChainedOperatorsTrueRateIsWhatItsRecordsTook() throws Exception {
        JobBuilder job = JobBuilder.named("throttled");
        job.source("source", Sources.generator(RateProfile.constant(RATE), s -> s))
                .map("costly", this::costly)
                .sink("sink", Sinks.counting());
        JobGraph graph = job.build();
        assertThat(ChainPlan.heads(graph)).containsEntry("costly", "source");

        try (RunningJob running = RunningJob.start(graph, JobConfig.defaults())) {
            Await.until(
                    Duration.ofSeconds(30),
                    "the shares to be estimated from samples",
                    () -> running.metrics().find("costly", 0).recordsIn() >= 300);
            JobMetricsSnapshot start = running.metrics();
            long tookAtStart = tookNanos.sum();
            Await.until(
                    Duration.ofSeconds(30),
                    WINDOW + " on the job's counters",
                    () ->
                            running.metrics().find("costly", 0).observedNanos()
                                            - start.find("costly", 0).observedNanos()
                                    >= WINDOW.toNanos());
            JobMetricsSnapshot end = running.metrics();
            long took = tookNanos.sum() - tookAtStart;
            long records = end.find("costly", 0).recordsIn() - start.find("costly", 0).recordsIn();
            double capacity = records / (took / 1e9);
            assertThat(end.ratesSince(start).get("costly").trueProcessingRate())
                    .as("costly's true rate vs " + capacity + " records/s its records took")
                    .isBetween(BELOW * capacity, ABOVE * capacity);
        }
    }

    /** Parks for the cost (as a remote call would wait) and adds what that took. */
    private Long costly(Long x) {
        long start = System.nanoTime();
        long now;
        while ((now = System.nanoTime()) - start < COST_NANOS) {
            LockSupport.parkNanos(COST_NANOS - (now - start));
        }
        tookNanos.add(now - start);
        return x;
    }
}
