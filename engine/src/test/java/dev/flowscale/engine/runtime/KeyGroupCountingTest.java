package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.InstanceSnapshot;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Each keyed instance counts the records it processes per key group of the range it owns. */
class KeyGroupCountingTest {
    private static final int KEY_GROUPS = 16;
    private static final long RECORDS = 20_000;

    /** Every other record has the hot key 0; the rest spread over keys 1..99. */
    static long keyOf(long seq) {
        return seq % 2 == 0 ? 0 : 1 + seq % 99;
    }

    static final class PassThrough extends KeyedProcessFunction<Long, Long, Long> {
        @Override
        public void processElement(Long value, Context<Long> context, Collector<Long> out) {
            out.collect(value);
        }
    }

    private static JobMetricsSnapshot runToTheEnd(JobConfig config) throws Exception {
        JobBuilder job = JobBuilder.named("keygroups").keyGroups(KEY_GROUPS);
        job.source("src", Sources.sequence(RECORDS)).map("map", x -> x)
                .keyBy(KeyGroupCountingTest::keyOf).process("keyed", PassThrough::new).parallelism(3)
                .sink("sink", Sinks.counting());
        try (RunningJob running = job.start(config)) {
            assertThat(running.await(Duration.ofSeconds(15))).as("job finished").isTrue();
            return running.metrics();
        }
    }

    @Test
    void aKeyedInstanceCountsExactlyTheRecordsOfEachKeyGroupItOwns() throws Exception {
        JobMetricsSnapshot metrics = runToTheEnd(JobConfig.defaults().withBatchSize(16));
        long[] expected = new long[KEY_GROUPS];
        LongStream.range(0, RECORDS).forEach(seq -> expected[KeyGroups.keyGroupFor(keyOf(seq), KEY_GROUPS)]++);

        for (InstanceSnapshot instance : metrics.instancesOf("keyed")) {
            KeyGroupRange owned = KeyGroups.rangeFor(instance.instance(), KEY_GROUPS, 3);
            assertThat(instance.keyGroupFirst()).isEqualTo(owned.start());
            assertThat(instance.keyGroupRecords())
                    .containsExactly(Arrays.copyOfRange(expected, owned.start(), owned.endInclusive() + 1));
            assertThat(Arrays.stream(instance.keyGroupRecords()).sum()).isEqualTo(instance.recordsIn());
        }
        assertThat(metrics.instancesOf("map")).allSatisfy(i -> assertThat(i.keyGroupRecords()).isEmpty());
    }

    @Test
    void anUninstrumentedJobCountsNoKeyGroups() throws Exception {
        JobMetricsSnapshot metrics = runToTheEnd(JobConfig.defaults().withInstrumentation(false));

        assertThat(metrics.instancesOf("keyed")).allSatisfy(i ->
                assertThat(Arrays.stream(i.keyGroupRecords()).sum()).isZero());
    }
}
