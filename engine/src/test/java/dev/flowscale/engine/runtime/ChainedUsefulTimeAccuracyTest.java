package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Three operators costing 0.2, 0.6 and 0.2 ms per record share one thread when chained. Each
 * operator's true processing rate, from its sampled share of the chain's useful time, must be what
 * the operator can do: records over the time its records took, which each function measures itself
 * (a loaded machine stretches parked waits, so the nominal costs are not the reference). The same
 * must hold for the same job unchained, each operator on a thread of its own.
 */
class ChainedUsefulTimeAccuracyTest {
    private static final Map<String, Long> COSTS =
            Map.of("light", 200_000L, "heavy", 600_000L, "last", 200_000L);

    /**
     * The engine's own work per record (a few microseconds, more on a loaded machine) counts as
     * useful too, and a record under way as the window opens or closes is in one total but not the
     * other. On a machine loaded many times its cores, a thread descheduled inside a timed batch
     * charges that wait to the operator the batch sampled, and the shares follow the last few
     * updates rather than the whole window: runs at a load of 20 on two cores land 15 % below to 11
     * % above. Hence 20 % either way; shares split evenly over the three operators, or by record
     * count, would be 40 % off or more. The quiet-machine accuracy (within 5 %) is measured by
     * {@code ChainAccuracyBenchmark}, not asserted here.
     */
    private static final double BELOW = 0.80;

    private static final double ABOVE = 1.20;

    private static final Duration WINDOW = Duration.ofSeconds(3);

    /**
     * Nanoseconds each operator's records took, by operator id (every operator at parallelism 1).
     */
    private final Map<String, LongAdder> tookNanos = new ConcurrentHashMap<>();

    @Test
    void eachChainedOperatorsTrueRateIsWhatItsRecordsTook() throws Exception {
        assertRatesMatchWhatRecordsTook(measure(graph()));
    }

    @Test
    void theSameOperatorsUnchainedShowTheirRatesToo() throws Exception {
        assertRatesMatchWhatRecordsTook(measure(graph().unchained()));
    }

    private void assertRatesMatchWhatRecordsTook(Measured measured) {
        for (String op : COSTS.keySet()) {
            double capacity = measured.capacity(op);
            assertThat(measured.rates.get(op).trueProcessingRate())
                    .as(op + " true rate vs " + capacity + " records/s its records took")
                    .isBetween(BELOW * capacity, ABOVE * capacity);
        }
    }

    private JobGraph graph() {
        JobBuilder job = JobBuilder.named("accuracy");
        DataStream<Long> stream = job.source("source", Sources.generator(Long.MAX_VALUE, s -> s));
        for (String op : new String[] {"light", "heavy", "last"}) {
            stream = stream.map(op, timed(op, COSTS.get(op)));
        }
        stream.sink("sink", Sinks.counting());
        return job.build();
    }

    /** Parks for {@code nanos} (as a remote call would wait) and adds what that took. */
    private MapFunction<Long, Long> timed(String op, long nanos) {
        LongAdder took = tookNanos.computeIfAbsent(op, o -> new LongAdder());
        return x -> {
            long start = System.nanoTime();
            long now;
            while ((now = System.nanoTime()) - start < nanos) {
                LockSupport.parkNanos(nanos - (now - start));
            }
            took.add(now - start);
            return x;
        };
    }

    private Measured measure(JobGraph graph) throws Exception {
        tookNanos.values().forEach(LongAdder::reset);
        try (RunningJob job = RunningJob.start(graph, JobConfig.defaults().withBatchSize(32))) {
            Await.until(
                    Duration.ofSeconds(30),
                    "the shares to be estimated from samples",
                    () -> job.metrics().find("last", 0).recordsIn() >= 200);
            JobMetricsSnapshot start = job.metrics();
            Map<String, Long> tookAtStart = took();
            Await.until(
                    Duration.ofSeconds(30),
                    WINDOW + " on the job's counters",
                    () ->
                            job.metrics().find("last", 0).observedNanos()
                                            - start.find("last", 0).observedNanos()
                                    >= WINDOW.toNanos());
            JobMetricsSnapshot end = job.metrics();
            Map<String, Long> tookAtEnd = took();
            return new Measured(end.ratesSince(start), start, end, tookAtStart, tookAtEnd);
        }
    }

    private Map<String, Long> took() {
        Map<String, Long> snapshot = new ConcurrentHashMap<>();
        tookNanos.forEach((op, nanos) -> snapshot.put(op, nanos.sum()));
        return snapshot;
    }

    private record Measured(
            Map<String, OperatorRates> rates,
            JobMetricsSnapshot start,
            JobMetricsSnapshot end,
            Map<String, Long> tookAtStart,
            Map<String, Long> tookAtEnd) {
        /** Records the operator processed in the window over the seconds they took. */
        double capacity(String op) {
            long records = end.find(op, 0).recordsIn() - start.find(op, 0).recordsIn();
            double seconds = (tookAtEnd.get(op) - tookAtStart.get(op)) / 1e9;
            return records / seconds;
        }
    }
}
