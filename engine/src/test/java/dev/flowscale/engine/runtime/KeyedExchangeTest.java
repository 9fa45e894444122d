package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.examples.WordCount.WordAndCount;
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

    @Test
    void eachRecordsKeyIsSelectedOnceAndItsStateIsExact() throws Exception {
        AtomicLong selections = new AtomicLong();
        var sink = Sinks.<WordAndCount>collecting();
        JobBuilder job = JobBuilder.named("keyed-exchange");
        job.source("src", Sources.sequence(RECORDS))
                .map("word", x -> "w" + x % KEYS)
                // A key made anew at every selection: state must find it by value.
                .keyBy(
                        (String word) -> {
                            selections.incrementAndGet();
                            return new String(word);
                        })
                .process("count", WordCount.CountWords::new)
                .sink("sink", sink);
        job.parallelism("count", 3);
        try (RunningJob running = job.start(JobConfig.defaults().withBatchSize(64))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
        }

        assertThat(selections.get()).as("key selections").isEqualTo(RECORDS);
        Map<String, Long> last =
                sink.records().stream()
                        .collect(
                                Collectors.toMap(
                                        WordAndCount::word, WordAndCount::count, Math::max));
        assertThat(last).hasSize(KEYS);
        assertThat(List.copyOf(last.values())).containsOnly(RECORDS / KEYS);
    }
}
