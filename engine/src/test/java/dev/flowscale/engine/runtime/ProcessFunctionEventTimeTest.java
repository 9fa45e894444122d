package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.WindowJobTest.OnePerPoll;
import dev.flowscale.engine.runtime.WindowJobTest.Reading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A non-keyed process function sees each record's event time and the instance's watermark. */
class ProcessFunctionEventTimeTest {
    /** Emits "value@timestamp wm watermark" for each record. */
    static final class Stamp extends ProcessFunction<Object, String> {
        @Override
        public void processElement(Object value, Context context, Collector<String> out) {
            Object shown = value instanceof Reading r ? r.value() : value;
            out.collect(shown + "@" + context.timestamp() + " wm " + context.currentWatermark());
        }
    }

    private static List<String> run(
            JobBuilder job, Sinks.CollectingSink<String> sink, ManualClock clock) throws Exception {
        try (RunningJob running = job.start(JobConfig.defaults().withClock(clock))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
        }
        return sink.records();
    }

    @Test
    void eachRecordComesWithItsTimestampAndTheWatermarkOfTheRecordsBeforeIt() throws Exception {
        ManualClock clock = new ManualClock(Instant.ofEpochMilli(0));
        List<Reading> input =
                List.of(new Reading(1, 10, 100), new Reading(1, 20, 250), new Reading(1, 30, 240));
        Sinks.CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("stamped");
        job.source(
                        "readings",
                        new OnePerPoll(input, clock),
                        WatermarkStrategy.forMonotonousTimestamps(Reading::time))
                .map("same", r -> (Object) r)
                .process("stamp", Stamp::new)
                .sink("sink", sink);

        List<String> stamped = run(job, sink, clock);

        assertThat(stamped)
                .containsExactly("10@100 wm " + Long.MIN_VALUE, "20@250 wm 99", "30@240 wm 249");
    }

    @Test
    void withoutEventTimeThereIsNoTimestampAndNoWatermark() throws Exception {
        Sinks.CollectingSink<String> sink = Sinks.collecting();
        JobBuilder job = JobBuilder.named("untimed");
        job.source("numbers", Sources.fromList(List.<Object>of(7L)))
                .process("stamp", Stamp::new)
                .sink("sink", sink);

        assertThat(run(job, sink, new ManualClock(Instant.ofEpochMilli(0))))
                .containsExactly("7@" + Long.MIN_VALUE + " wm " + Long.MIN_VALUE);
    }

    @Test
    void aFunctionThatOverridesNeitherProcessElementSaysWhichToOverride() {
        ProcessFunction<Long, Long> empty = new ProcessFunction<>() {};

        assertThatThrownBy(() -> empty.processElement(1L, x -> {}))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("override one of them");
    }
}
