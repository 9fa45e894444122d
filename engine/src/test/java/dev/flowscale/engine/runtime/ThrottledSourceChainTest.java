package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.SyntheticCost;
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

    /** Slower than the costly operator and than the source's rate: the chain is backpressured. */
    private static final long SLOW_SINK_NANOS = 2_000_000;

    /** Milliseconds per record: one batch of the source takes seconds. */
    private static final long SLOW_COST_NANOS = 5_000_000;

    /** Records the slow operator emits per record (a split of sentences into words). */
    private static final int FAN_OUT = 20;

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
        assertTrueRateIsWhatRecordsTook(job.build(), 300);
    }

    /**
     * As above, with the chain's output blocked: a slower operator downstream (on its own thread)
     * holds the chain to its pace, so the source is always behind its schedule and the chain's
     * thread alternates between the costly operator's work and waits for room downstream. Those
     * waits are no operator's work and must not change the costly operator's share.
     */
    @Test
    void theChainedOperatorsTrueRateHoldsWhileTheChainIsBackpressured() throws Exception {
        JobBuilder job = JobBuilder.named("throttled-backpressured");
        job.source("source", Sources.generator(RateProfile.constant(RATE), s -> s))
                .map("costly", this::costly)
                .rebalance()
                .sink("sink", Sinks.counting())
                .cost(SyntheticCost.blocking(Duration.ofNanos(SLOW_SINK_NANOS)));
        JobMetricsSnapshot[] window = assertTrueRateIsWhatRecordsTook(job.build(), 300);
        assertBlocked(window);
    }

    /**
     * A slow operator (milliseconds per record) chained to the source and blocked downstream: one
     * batch of the source (512 records) takes seconds, and the chain's shares must come from its
     * first records, or the first window the autoscaler reads holds the even split the shares start
     * from (the real-engine DS2 word count sized its split at 6 where 10 sustain).
     */
    @Test
    void aSlowChainsSharesComeFromItsFirstRecords() throws Exception {
        JobBuilder job = JobBuilder.named("throttled-slow");
        job.source("source", Sources.generator(RateProfile.constant(RATE), s -> s))
                .flatMap(
                        "costly",
                        (Long x, Collector<Long> out) -> {
                            parkFor(x, SLOW_COST_NANOS);
                            for (int i = 0; i < FAN_OUT; i++) {
                                out.collect(x);
                            }
                        })
                .rebalance()
                .sink("sink", Sinks.counting())
                .cost(SyntheticCost.blocking(Duration.ofNanos(2 * SLOW_COST_NANOS / FAN_OUT)));
        JobMetricsSnapshot[] window = assertTrueRateIsWhatRecordsTook(job.build(), 20);
        assertBlocked(window);
    }

    private static void assertBlocked(JobMetricsSnapshot[] window) {
        long blocked =
                window[1].find("costly", 0).backpressureNanos()
                        - window[0].find("costly", 0).backpressureNanos();
        assertThat(blocked)
                .as("ns the chain waited for room downstream")
                .isGreaterThan(WINDOW.toNanos() / 5);
    }

    /**
     * Measures a window of the job's counters once {@code warmUp} records reached the costly
     * operator; returns the counters at its start and its end.
     */
    private JobMetricsSnapshot[] assertTrueRateIsWhatRecordsTook(JobGraph graph, int warmUp)
            throws Exception {
        assertThat(ChainPlan.heads(graph)).containsEntry("costly", "source");

        try (RunningJob running = RunningJob.start(graph, JobConfig.defaults())) {
            Await.until(
                    Duration.ofSeconds(30),
                    "the shares to be estimated from samples",
                    () -> running.metrics().find("costly", 0).recordsIn() >= warmUp);
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
            return new JobMetricsSnapshot[] {start, end};
        }
    }

    /** Parks for the cost (as a remote call would wait) and adds what that took. */
    private Long costly(Long x) {
        return parkFor(x, COST_NANOS);
    }

    private Long parkFor(Long x, long nanos) {
        long start = System.nanoTime();
        long now;
        while ((now = System.nanoTime()) - start < nanos) {
            LockSupport.parkNanos(nanos - (now - start));
        }
        tookNanos.add(now - start);
        return x;
    }
}
