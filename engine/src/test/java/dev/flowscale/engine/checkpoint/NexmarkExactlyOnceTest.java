package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nexmark Q8 (a window join) and Q5 (a sliding window, then a tumbling one) over the replayable
 * generator, started at parallelism 2, failed once and rescaled at random three times: each result
 * arrives exactly once, and the results are exactly those of the same query run at parallelism 1
 * without a failure. Window contents and timers survive every restore. The steps are {@link
 * EventTimeRuns}', shared with {@link WindowExactlyOnceTest} and {@link JoinExactlyOnceTest}.
 */
class NexmarkExactlyOnceTest {
    private static final long EVENTS = 24_000;
    private static final double RATE = 20_000;

    /** 10,000 events per second of event time: the stream spans 2.4 s of event time. */
    private static final NexmarkGenerator GENERATOR = new NexmarkGenerator(7, 0, 10_000);

    private static final Duration Q8_WINDOW = Duration.ofMillis(500);
    private static final Duration Q5_SIZE = Duration.ofMillis(400);
    private static final Duration Q5_SLIDE = Duration.ofMillis(100);
    private static final String RESULTS = "results";
    private static final StateDescriptor<Long> TIMES = StateDescriptor.value("times", Long.class);

    /** A query's results as a stream of a job over an event source. */
    @FunctionalInterface
    private interface Query {
        DataStream<?> results(JobBuilder job, SourceFunction<Event> events);
    }

    /** Counts how many times each result (keyed by its text) arrived. */
    static final class CountArrivals<T> extends KeyedProcessFunction<String, T, Void> {
        private ValueState<Long> times;

        @Override
        public void open(KeyedRuntimeContext context) {
            times = context.valueState(TIMES);
        }

        @Override
        public void processElement(T result, Context<String> ctx, Collector<Void> out) {
            times.update((times.value() == null ? 0 : times.value()) + 1);
        }
    }

    @ParameterizedTest(name = "on the {0} backend")
    @ValueSource(strings = {"heap", "rocksdb"})
    void q8NewSellersArriveExactlyOnceAfterRandomRescalesAndAFailureAsAtParallelismOne(
            String backend, @TempDir Path dir) throws Exception {
        Query q8 = (job, events) -> NexmarkQueries.q8Results(job, events, Q8_WINDOW);
        Set<String> expected = atParallelismOne(q8);
        assertThat(expected).as("results at parallelism 1").hasSizeGreaterThan(300);
        Map<Object, Long> arrivals = rescaledAndFailed(q8, new Random(20261203L), dir, backend);
        assertThat(arrivals.values()).as("every result arrived once").containsOnly(1L);
        assertThat(arrivals.keySet()).isEqualTo(expected);
    }

    private static <T> void countArrivals(DataStream<T> results) {
        results.keyBy(r -> r.toString())
                .process(RESULTS, CountArrivals<T>::new)
                .sink("sink", Sinks.counting());
    }

    /** On the heap only: Q8 (a window join) and WindowExactlyOnceTest cover windows on RocksDB. */
    @Test
    void q5HotItemsArriveExactlyOnceAfterRandomRescalesAndAFailureAsAtParallelismOne(
            @TempDir Path dir) throws Exception {
        Query q5 = (job, events) -> NexmarkQueries.q5Results(job, events, Q5_SIZE, Q5_SLIDE);
        Set<String> expected = atParallelismOne(q5);
        assertThat(expected).as("one result per slide at parallelism 1").hasSizeGreaterThan(20);
        Map<Object, Long> arrivals = rescaledAndFailed(q5, new Random(20261204L), dir, "heap");
        assertThat(arrivals.values()).as("every result arrived once").containsOnly(1L);
        assertThat(arrivals.keySet()).isEqualTo(expected);
    }

    /** The query's results at parallelism 1, no failure, the bounded stream run to its end. */
    private static Set<String> atParallelismOne(Query query) throws Exception {
        CollectingSink<Object> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("reference");
        query.results(job, new GeneratorSource<>(null, GENERATOR::event, EVENTS))
                .sink("sink", sink);
        try (RunningJob running = job.start(JobConfig.defaults())) {
            assertThat(running.await(Duration.ofSeconds(60))).as("reference run finished").isTrue();
        }
        Set<String> results = new HashSet<>();
        sink.records()
                .forEach(r -> assertThat(results.add(r.toString())).as("unique " + r).isTrue());
        return results;
    }

    /**
     * Arrivals per result of the query at parallelism 2, failed at the middle event and rescaled at
     * random, read from its final savepoint once the whole stream has gone through (every split
     * finished, so the last watermark fired every window).
     */
    private static Map<Object, Long> rescaledAndFailed(
            Query query, Random random, Path dir, String backend) throws Exception {
        AtomicBoolean failed = new AtomicBoolean();
        SourceFunction<Event> events =
                new GeneratorSource<>(
                        RateProfile.constant(RATE),
                        n -> {
                            if (n == EVENTS / 2 && failed.compareAndSet(false, true)) {
                                throw new IllegalStateException("injected failure at event " + n);
                            }
                            return GENERATOR.event(n);
                        },
                        EVENTS,
                        true);
        JobBuilder job = JobBuilder.named("rescaled").defaultParallelism(2);
        countArrivals(query.results(job, events));
        JobConfig config =
                EventTimeRuns.config(dir).withStateBackend(StateBackendConfig.named(backend));
        try (RunningJob running = job.start(config)) {
            EventTimeRuns.awaitRestartAfterFailure(running);
            EventTimeRuns.rescaleAtRandom(running, random, 3);
            EventTimeRuns.awaitDrained(running, RESULTS);
            Path last = running.stopWithSavepoint(Duration.ofSeconds(30));
            return SnapshotInspector.mergedKeyedState(last, running.graph(), RESULTS, TIMES);
        }
    }
}
