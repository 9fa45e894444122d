package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.GeneratorSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class EventTimeJobTest {

    /** Event time of record n: out of order by up to 40 ms within each block of 8. */
    static long timeOf(long n) {
        return n * 10 - (n % 8) * 5;
    }

    /** Buffers each key's values and emits them sorted by event time once the watermark passes. */
    static final class SortByEventTime extends KeyedProcessFunction<Long, Long, String> {
        static final StateDescriptor<Long> BUFFER = StateDescriptor.list("buffer", Long.class);
        private ListState<Long> buffer;

        @Override
        public void open(KeyedRuntimeContext context) {
            buffer = context.listState(BUFFER);
        }

        @Override
        public void processElement(Long n, Context<Long> ctx, Collector<String> out) {
            assertThat(ctx.timestamp()).isEqualTo(timeOf(n));
            if (ctx.timestamp() <= ctx.timerService().currentWatermark()) {
                out.collect("late " + n);
                return;
            }
            buffer.add(n);
            ctx.timerService().registerEventTimeTimer(ctx.timestamp());
        }

        @Override
        public void onTimer(long time, OnTimerContext<Long> ctx, Collector<String> out) {
            List<Long> due = new ArrayList<>();
            List<Long> rest = new ArrayList<>();
            for (Long n : buffer.get()) {
                (timeOf(n) <= time ? due : rest).add(n);
            }
            due.sort(Comparator.comparingLong(EventTimeJobTest::timeOf));
            due.forEach(n -> out.collect(ctx.currentKey() + ":" + timeOf(n)));
            buffer.update(rest);
        }
    }

    @Test
    void outOfOrderRecordsComeOutInEventTimeOrderPerKeyWithNoneLateWithinTheBound()
            throws Exception {
        CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("sort");
        job.source(
                        "src",
                        Sources.generator(2_000, n -> n),
                        WatermarkStrategy.forBoundedOutOfOrderness(
                                        Duration.ofMillis(40), EventTimeJobTest::timeOf)
                                .withInterval(Duration.ofMillis(1)))
                .parallelism(2)
                .map("same", n -> n)
                .parallelism(3)
                .keyBy(n -> n % 4)
                .process("sort", SortByEventTime::new)
                .parallelism(2)
                .sink("sink", sink);
        try (RunningJob running = job.start(JobConfig.defaults().withBatchSize(16))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
        List<String> out = sink.records();
        assertThat(out).noneMatch(line -> line.startsWith("late"));
        for (long key = 0; key < 4; key++) {
            long k = key;
            List<String> expected =
                    LongStream.range(0, 2_000)
                            .filter(n -> n % 4 == k)
                            .map(EventTimeJobTest::timeOf)
                            .sorted()
                            .mapToObj(t -> k + ":" + t)
                            .toList();
            assertThat(out.stream().filter(line -> line.startsWith(k + ":")).toList())
                    .containsExactlyElementsOf(expected);
        }
    }

    /** Emits "fired" from a processing-time timer 10 s after each key's record. */
    static final class PingLater extends KeyedProcessFunction<Long, Long, String> {
        @Override
        public void processElement(Long n, Context<Long> ctx, Collector<String> out) {
            ctx.timerService()
                    .registerProcessingTimeTimer(
                            ctx.timerService().currentProcessingTime() + 10_000);
            out.collect(n + " registered");
        }

        @Override
        public void onTimer(long time, OnTimerContext<Long> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + " fired at " + time);
        }
    }

    @Test
    void processingTimeTimersFireWhenTheJobsClockPassesThemEvenWithoutInput() throws Exception {
        ManualClock clock = new ManualClock(Instant.ofEpochMilli(50_000));
        CollectingSink<String> sink = Sinks.collecting();
        // A source that stays open after its records: the timers fire with no input arriving.
        JobBuilder endless = JobBuilder.named("ping");
        endless.source("src", new GeneratorSource<>(null, n -> n, 3, true))
                .keyBy(n -> n)
                .process("ping", PingLater::new)
                .sink("sink", sink);
        try (RunningJob running = endless.start(JobConfig.defaults().withClock(clock))) {
            assertThat(running.awaitRunning(Duration.ofSeconds(20))).isTrue();
            pollUntil(() -> sink.records().size() == 3);
            clock.advance(Duration.ofMillis(9_999));
            clock.advance(Duration.ofMillis(1));
            pollUntil(() -> sink.records().size() == 6);
            assertThat(sink.records().subList(3, 6))
                    .containsExactlyInAnyOrder(
                            "0 fired at 60000", "1 fired at 60000", "2 fired at 60000");
            running.cancel();
        }
    }

    private static void pollUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met in time").isLessThan(deadline);
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
