package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A reader's fetch (work per call, as a Kafka consumer's poll) counts as useful time only in the
 * share it reports, its records over a full fetch's: counted whole, a fetch that costs the same for
 * 1 record as for 500 would make the source's capacity fall with its input rate.
 */
class FetchTimeTest {
    private static final long FETCH_NANOS = Duration.ofMillis(1).toNanos();

    /**
     * Each fetch works for 1 ms and readies one record, reporting {@code share} as useful; {@code
     * fetchNanos} sums the fetches' wall-clock time (longer than 1 ms each on a loaded machine),
     * {@code longestNanos} keeps the longest.
     */
    record CostlyFetches(double share, AtomicLong fetchNanos, AtomicLong longestNanos)
            implements SourceFunction<Long> {
        CostlyFetches(double share) {
            this(share, new AtomicLong(), new AtomicLong());
        }

        @Override
        public SourceReader<Long> createReader(RuntimeContext context) {
            return new SourceReader<>() {
                private long readied;
                private long emitted;

                @Override
                public boolean fetchesApart() {
                    return true;
                }

                @Override
                public double fetch(int max) {
                    long start = System.nanoTime();
                    while (System.nanoTime() < start + FETCH_NANOS) {
                        Thread.onSpinWait();
                    }
                    long took = System.nanoTime() - start;
                    fetchNanos.addAndGet(took);
                    longestNanos.accumulateAndGet(took, Math::max);
                    readied++;
                    return share;
                }

                @Override
                public int poll(Collector<Long> out, int max) {
                    if (emitted == readied) {
                        return 0;
                    }
                    out.collect(++emitted);
                    return 1;
                }
            };
        }
    }

    @Test
    void whenAFetchReportsATenthAsUseful_thenMostOfItsTimeIsNotUseful() throws Exception {
        Measured run = sourceAfter(new CostlyFetches(0.1), 500);

        assertThat(run.source().recordsOut()).isPositive();
        assertThat(run.source().usefulNanos())
                .as(
                        "useful time against the %d ns the fetches took, a tenth of it useful",
                        run.fetchedAfter())
                .isLessThan(run.fetchedAfter() / 2);
    }

    @Test
    void whenAFetchIsFull_thenAllOfItsTimeIsUseful() throws Exception {
        Measured run = sourceAfter(new CostlyFetches(1), 500);

        assertThat(run.source().recordsOut()).isPositive();
        assertThat(run.source().usefulNanos())
                .as(
                        "useful time against the %d ns the fetches took, all of it useful",
                        run.fetchedBefore())
                .isGreaterThanOrEqualTo(run.fetchedBefore() - run.longestFetch());
    }

    /**
     * The source's counters, with the fetches' time summed before they were read (every fetch then
     * ended is booked in them but one whose booking was under way) and after the job stopped.
     */
    record Measured(
            long fetchedBefore, InstanceCounts source, long fetchedAfter, long longestFetch) {}

    /** The source's counters once it has observed {@code millis} ms. */
    private static Measured sourceAfter(CostlyFetches fetches, long millis) throws Exception {
        JobBuilder job = JobBuilder.named("fetches");
        job.source("src", fetches).sink("sink", Sinks.counting());
        long before;
        InstanceCounts source;
        try (RunningJob running = job.start()) {
            EmptyPollTest.awaitObserved(running, millis);
            before = fetches.fetchNanos().get();
            source = running.metrics().find("src", 0);
        }
        return new Measured(
                before, source, fetches.fetchNanos().get(), fetches.longestNanos().get());
    }
}
