package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A source's poll that finds nothing is waiting for input, not useful time: otherwise a source
 * whose polls cost something (a Kafka fetch) would seem to lose capacity as its input falls, and
 * the autoscaler would scale it up when the load drops.
 */
class EmptyPollTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long POLL_NANOS = Duration.ofMillis(1).toNanos();

    /** Each poll works for 1 ms, then emits one record every {@code every}-th time, else none. */
    record CostlyPolls(int every) implements SourceFunction<Long> {
        @Override
        public SourceReader<Long> createReader(RuntimeContext context) {
            return new SourceReader<>() {
                private long polls;

                @Override
                public int poll(Collector<Long> out, int max) {
                    long until = System.nanoTime() + POLL_NANOS;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    if (++polls % every != 0) {
                        return 0;
                    }
                    out.collect(polls);
                    return 1;
                }

                @Override
                public long nanosUntilNext() {
                    return 100_000L;
                }
            };
        }
    }

    @Test
    void pollsThatFindNothingAreNotUsefulTime() throws Exception {
        InstanceCounts source = sourceAfter(new CostlyPolls(Integer.MAX_VALUE), 500);

        assertThat(source.recordsOut()).isZero();
        assertThat((double) source.usefulNanos() / source.observedNanos())
                .as("share of the source's time counted useful while its polls found nothing")
                .isLessThan(0.2);
    }

    @Test
    void aPollAfterAnIdleWaitThatBringsRecordsIsUsefulFromItsStart() throws Exception {
        InstanceCounts source = sourceAfter(new CostlyPolls(2), 500);

        assertThat(source.recordsOut()).isPositive();
        assertThat(source.usefulNanos())
                .as("at least the 1 ms of work of each poll that brought a record")
                .isGreaterThanOrEqualTo(source.recordsOut() * POLL_NANOS);
    }

    /** The source's counters once it has observed {@code millis} ms. */
    private static InstanceCounts sourceAfter(CostlyPolls polls, long millis) throws Exception {
        JobBuilder job = JobBuilder.named("polls");
        job.source("src", polls).sink("sink", Sinks.counting());
        try (RunningJob running = job.start()) {
            return awaitObserved(running, millis);
        }
    }

    /** The counters of source "src" instance 0 once it has observed {@code millis} ms. */
    static InstanceCounts awaitObserved(RunningJob running, long millis) {
        long observed = Duration.ofMillis(millis).toNanos();
        Await.until(
                TIMEOUT,
                "the source observed for " + millis + " ms",
                () -> running.metrics().find("src", 0).observedNanos() >= observed);
        return running.metrics().find("src", 0);
    }
}
