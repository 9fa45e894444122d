package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A record crosses a keyed exchange with its key and key hash, selected once by its producer. */
class KeyedExchangeTest {
    private static final long RECORDS = 10_000;
    private static final int KEYS = 100;

    /** A key made anew at every selection, equal by value. */
    record Key(long value) {}

    /** Counts each key's records in value state and emits the key with its count. */
    static final class CountPerKey extends KeyedProcessFunction<Key, Long, Map.Entry<Key, Long>> {
        private ValueState<Long> count;

        @Override
        public void open(KeyedRuntimeContext context) {
            count = context.valueState(StateDescriptor.value("count", Long.class));
        }

        @Override
        public void processElement(
                Long value, Context<Key> context, Collector<Map.Entry<Key, Long>> out) {
            long next = count.value() == null ? 1 : count.value() + 1;
            count.update(next);
            out.collect(Map.entry(context.currentKey(), next));
        }
    }

    @Test
    void eachRecordsKeyIsSelectedOnceAndItsStateIsExact() throws Exception {
        AtomicLong selections = new AtomicLong();
        var sink = Sinks.<Map.Entry<Key, Long>>collecting();
        JobBuilder job = JobBuilder.named("keyed-exchange");
        job.source("src", Sources.sequence(RECORDS))
                .keyBy(
                        (Long x) -> {
                            selections.incrementAndGet();
                            return new Key(x % KEYS);
                        })
                .process("count", CountPerKey::new)
                .sink("sink", sink);
        job.parallelism("count", 3);
        try (RunningJob running = job.start(JobConfig.defaults().withBatchSize(64))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
        }

        assertThat(selections.get()).as("key selections").isEqualTo(RECORDS);
        Map<Key, Long> last =
                sink.records().stream()
                        .collect(
                                Collectors.toMap(
                                        Map.Entry::getKey, Map.Entry::getValue, Math::max));
        assertThat(last).hasSize(KEYS);
        assertThat(List.copyOf(last.values())).containsOnly(RECORDS / KEYS);
    }
}
