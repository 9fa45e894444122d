package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedCoProcessFunction;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.KeyedConnectedStreams;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.window.WindowAssigner;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Two-input operators in running jobs, against hand-computed pairs. */
class JoinJobTest {
    /** A record of either side: its key, its name and its event time. */
    record Event(String key, String name, long time) {}

    private static List<String> run(
            List<Event> left,
            List<Event> right,
            Function<KeyedConnectedStreams<Event, Event, String>, DataStream<String>> operator)
            throws Exception {
        CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("join");
        var strategy = WatermarkStrategy.forMonotonousTimestamps(Event::time);
        var a = job.source("left", Sources.fromList(left), strategy).keyBy(Event::key);
        var b = job.source("right", Sources.fromList(right), strategy).keyBy(Event::key);
        operator.apply(a.connect(b)).parallelism(2).sink("sink", sink);
        try (RunningJob running = job.start(JobConfig.defaults().withBatchSize(2))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
        return sink.records();
    }

    private static String pair(Event a, Event b) {
        return a.name() + "-" + b.name();
    }

    @Test
    void anIntervalJoinPairsEachLeftRecordWithTheRightRecordsInItsIntervalInclusive()
            throws Exception {
        List<Event> left =
                List.of(
                        new Event("k1", "a1", 10),
                        new Event("k2", "a3", 10),
                        new Event("k1", "a2", 20));
        List<Event> right =
                List.of(
                        new Event("k1", "b1", 8),
                        new Event("k1", "b2", 13),
                        new Event("k2", "b4", 14),
                        new Event("k1", "b3", 19),
                        new Event("k1", "b5", 25));
        List<String> pairs =
                run(
                        left,
                        right,
                        c ->
                                c.intervalJoin(
                                        "join",
                                        Duration.ofMillis(-2),
                                        Duration.ofMillis(3),
                                        JoinJobTest::pair,
                                        Event.class,
                                        Event.class));
        assertThat(pairs).containsExactlyInAnyOrder("a1-b1", "a1-b2", "a2-b3");
    }

    @Test
    void aWindowJoinPairsTheRecordsOfBothSidesThatShareAKeyAndAWindow() throws Exception {
        List<Event> left =
                List.of(
                        new Event("k1", "a1", 1),
                        new Event("k1", "a2", 12),
                        new Event("k2", "a3", 15));
        List<Event> right =
                List.of(
                        new Event("k1", "b1", 5),
                        new Event("k1", "b2", 9),
                        new Event("k1", "b3", 15),
                        new Event("k2", "b4", 21));
        List<String> pairs =
                run(
                        left,
                        right,
                        c ->
                                c.windowJoin(
                                        "join",
                                        WindowAssigner.tumbling(Duration.ofMillis(10)),
                                        JoinJobTest::pair,
                                        Event.class,
                                        Event.class));
        assertThat(pairs).containsExactlyInAnyOrder("a1-b1", "a1-b2", "a2-b3");
    }

    /** Counts each key's records per input in shared keyed state; reports at the end of input. */
    static final class CountBoth extends KeyedCoProcessFunction<String, Event, Event, String> {
        private ValueState<Long> lefts;
        private ValueState<Long> rights;

        @Override
        public void open(KeyedRuntimeContext context) {
            lefts = context.valueState(StateDescriptor.value("lefts", Long.class));
            rights = context.valueState(StateDescriptor.value("rights", Long.class));
        }

        @Override
        public void processElement1(
                Event e, KeyedProcessFunction.Context<String> ctx, Collector<String> out) {
            lefts.update((lefts.value() == null ? 0 : lefts.value()) + 1);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE - 1);
        }

        @Override
        public void processElement2(
                Event e, KeyedProcessFunction.Context<String> ctx, Collector<String> out) {
            rights.update((rights.value() == null ? 0 : rights.value()) + 1);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE - 1);
        }

        @Override
        public void onTimer(
                long time, KeyedProcessFunction.OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + " " + lefts.value() + "/" + rights.value());
        }
    }

    @Test
    void aCoProcessFunctionSeesEachInputsRecordsUnderTheirKeyWithSharedStateAndTimers()
            throws Exception {
        List<Event> left =
                List.of(new Event("k1", "a", 1), new Event("k2", "a", 2), new Event("k1", "a", 3));
        List<Event> right =
                List.of(
                        new Event("k1", "b", 1),
                        new Event("k3", "b", 2),
                        new Event("k1", "b", 3),
                        new Event("k1", "b", 4));
        List<String> counts = run(left, right, c -> c.process("count", CountBoth::new));
        assertThat(counts).containsExactlyInAnyOrder("k1 2/3", "k2 1/null", "k3 null/1");
    }
}
