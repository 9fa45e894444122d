package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.window.Aggregates;
import dev.flowscale.engine.window.WindowAssigner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Windows in a running job: results, late records on a side output, the final watermark. */
class WindowJobTest {
    /** {key, value, event time}. */
    record Reading(long key, long value, long time) {}

    private static final OutputTag<Reading> LATE = new OutputTag<>("late", Reading.class);

    /**
     * Emits one reading per poll and steps the job's clock past the watermark interval, so that the
     * source emits its watermark after every reading: which records are late is then fixed.
     */
    record OnePerPoll(List<Reading> readings, ManualClock clock)
            implements SourceFunction<Reading> {
        @Override
        public SourceReader<Reading> createReader(RuntimeContext context) {
            return new SourceReader<>() {
                private int next;

                @Override
                public int poll(Collector<Reading> out, int max) {
                    if (next == readings.size()) {
                        return END_OF_INPUT;
                    }
                    out.collect(readings.get(next++));
                    clock.advance(Duration.ofSeconds(1));
                    return 1;
                }
            };
        }
    }

    @Test
    void windowResultsAreExactAndRecordsBehindTheWatermarkGoToTheLateSideOutput() throws Exception {
        ManualClock clock = new ManualClock(Instant.ofEpochMilli(0));
        List<Reading> input =
                List.of(
                        new Reading(1, 1, 2),
                        new Reading(1, 2, 8),
                        new Reading(2, 4, 15),
                        new Reading(1, 8, 11),
                        new Reading(1, 16, 5),
                        new Reading(2, 32, 25),
                        new Reading(2, 64, 20));
        CollectingSink<String> results = Sinks.collecting();
        CollectingSink<Reading> late = Sinks.collecting();
        JobBuilder job = JobBuilder.named("windows");
        DataStream<String> sums =
                job.source(
                                "readings",
                                new OnePerPoll(input, clock),
                                WatermarkStrategy.forMonotonousTimestamps(Reading::time))
                        .keyBy(Reading::key)
                        .window(WindowAssigner.tumbling(Duration.ofMillis(10)))
                        .sideOutputLateData(LATE)
                        .<Long, Long, String>aggregate(
                                "sum",
                                Aggregates.sumOf(Reading::value),
                                Long.class,
                                (key, w, sum, out) ->
                                        out.collect(key + "@" + w.start() + "=" + sum))
                        .parallelism(2);
        sums.sink("results", results);
        sums.sideOutput(LATE).sink("late", late);
        try (RunningJob running = job.start(JobConfig.defaults().withClock(clock))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
        assertThat(results.records())
                .containsExactlyInAnyOrder("1@0=3", "2@10=4", "1@10=8", "2@20=96");
        assertThat(late.records()).containsExactly(new Reading(1, 16, 5));
    }
}
