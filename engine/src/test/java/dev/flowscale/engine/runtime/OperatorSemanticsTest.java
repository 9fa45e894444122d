package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.examples.WordCount.WordAndCount;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.job.Sources;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class OperatorSemanticsTest {

    private static void run(JobBuilder job) throws Exception {
        try (RunningJob running = job.start(JobConfig.defaults().withBatchSize(16))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
    }

    @Test
    void mapFlatMapAndFilterTransformEveryRecordOnce() throws Exception {
        CollectingSink<Long> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("mff");
        job.source("src", Sources.sequence(1000))
                .parallelism(2)
                .map("times10", x -> x * 10)
                .parallelism(3)
                .<Long>flatMap(
                        "twice",
                        (x, out) -> {
                            out.collect(x);
                            out.collect(x + 1);
                        })
                .parallelism(2)
                .filter("even", x -> x % 2 == 0)
                .parallelism(1)
                .sink("sink", sink)
                .parallelism(2);
        run(job);
        assertThat(sink.records())
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, 1000).map(x -> x * 10).boxed().toList());
    }

    @Test
    void unionMergesAllInputs() throws Exception {
        CollectingSink<Long> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("union");
        DataStream<Long> a = job.source("a", Sources.sequence(100)).parallelism(2);
        DataStream<Long> b = job.source("b", Sources.generator(50, seq -> 1000 + seq));
        a.union(b).map("id", x -> x).parallelism(3).sink("sink", sink);
        run(job);
        assertThat(sink.records()).hasSize(150).containsAll(List.of(0L, 99L, 1000L, 1049L));
    }

    @Test
    void broadcastSendsEveryRecordToEveryInstance() throws Exception {
        CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("bcast");
        job.source("src", Sources.sequence(10))
                .broadcast()
                .map("tag", x -> x + "@")
                .parallelism(3)
                .sink("sink", sink);
        run(job);
        assertThat(sink.records()).hasSize(30);
        assertThat(
                        sink.records().stream()
                                .collect(
                                        Collectors.groupingBy(
                                                Function.identity(), Collectors.counting())))
                .allSatisfy((k, v) -> assertThat(v).isEqualTo(3L));
    }

    @Test
    void rebalanceSpreadsRecordsEvenly() throws Exception {
        CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("rebalance");
        job.source("src", Sources.sequence(900))
                .rebalance()
                .map("where", new InstanceTagger()::tag)
                .parallelism(3)
                .sink("sink", sink);
        run(job);
        Map<String, Long> perThread =
                sink.records().stream()
                        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(perThread).hasSize(3).allSatisfy((k, v) -> assertThat(v).isEqualTo(300L));
    }

    /** Names the thread (and so the instance) that handled a record. */
    static final class InstanceTagger {
        String tag(Long ignored) {
            return Thread.currentThread().getName();
        }
    }

    @Test
    void wordCountCountsEveryWordExactly() throws Exception {
        SentenceGenerator generator = new SentenceGenerator(8, 50, 7L);
        CollectingSink<WordAndCount> sink = Sinks.collecting();
        JobBuilder job = WordCount.build("wc", Sources.generator(2000, generator::sentence), sink);
        job.parallelism(WordCount.SPLIT, 2).parallelism(WordCount.COUNT, 3);
        run(job);
        Map<String, Long> expected = new HashMap<>();
        for (long i = 0; i < 2000; i++) {
            WordCount.split(generator.sentence(i), w -> expected.merge(w, 1L, Long::sum));
        }
        Map<String, Long> finalCounts = new HashMap<>();
        sink.records().forEach(r -> finalCounts.merge(r.word(), r.count(), Math::max));
        assertThat(finalCounts).isEqualTo(expected);
        assertThat(sink.records())
                .hasSize((int) expected.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void keyedStateIsIsolatedBetweenKeys() throws Exception {
        CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("isolation");
        job.source("src", Sources.sequence(600))
                .parallelism(2)
                .keyBy(x -> "k" + (x % 6))
                .process("state", AllStates::new)
                .parallelism(4)
                .sink("sink", sink);
        run(job);
        Map<String, String> last = new HashMap<>();
        sink.records()
                .forEach(
                        r ->
                                last.merge(
                                        r.substring(0, 2),
                                        r,
                                        (a, b) -> count(a) >= count(b) ? a : b));
        assertThat(last).hasSize(6);
        for (int i = 0; i < 6; i++) {
            int k = i;
            // each key saw exactly the 100 values x with x % 6 == k: sum, list size and map entries
            // agree
            long sum = LongStream.range(0, 600).filter(x -> x % 6 == k).sum();
            assertThat(last.get("k" + k))
                    .isEqualTo("k" + k + " n=100 sum=" + sum + " list=100 map=100");
        }
    }

    private static int count(String report) {
        return Integer.parseInt(report.split(" ")[1].substring(2));
    }

    /** Uses value, list and map state together for each key and reports them. */
    static final class AllStates extends KeyedProcessFunction<String, Long, String> {
        private ValueState<Long> sum;
        private ListState<Long> seen;
        private MapState<Long, Boolean> index;

        @Override
        public void open(KeyedRuntimeContext context) {
            sum = context.valueState(StateDescriptor.value("sum", Long.class));
            seen = context.listState(StateDescriptor.list("seen", Long.class));
            index = context.mapState(StateDescriptor.map("index", Long.class, Boolean.class));
        }

        @Override
        public void processElement(Long value, Context<String> context, Collector<String> out) {
            sum.update((sum.value() == null ? 0 : sum.value()) + value);
            seen.add(value);
            index.put(value, true);
            out.collect(
                    context.currentKey()
                            + " n="
                            + seen.get().size()
                            + " sum="
                            + sum.value()
                            + " list="
                            + seen.get().size()
                            + " map="
                            + index.entries().size());
        }
    }
}
