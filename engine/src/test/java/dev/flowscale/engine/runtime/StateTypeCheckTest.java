package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A state whose type the state codec cannot write or read back stops the job as it starts, naming
 * the operator, the state and the type, before any record is processed (it used to fail only at the
 * first snapshot or restore).
 */
class StateTypeCheckTest {

    /** No properties: the codec's JSON mapper refuses to write it. */
    public static final class Opaque {
        private long hidden;

        long hidden() {
            return hidden;
        }
    }

    /** A getter but no creator: the codec can write it but not read it back. */
    public static final class OneWay {
        private final long value;

        public OneWay(long value) {
            this.value = value;
        }

        public long getValue() {
            return value;
        }
    }

    /** A record: written and read back. */
    public record Total(long count, String last) {}

    static final class Holding<T> extends KeyedProcessFunction<String, Long, Long> {
        private final StateDescriptor<T> descriptor;
        private ValueState<T> state;

        Holding(Class<T> type) {
            this.descriptor = StateDescriptor.value("held", type);
        }

        @Override
        public void open(KeyedRuntimeContext context) {
            state = context.valueState(descriptor);
        }

        @Override
        public void processElement(Long value, Context<String> context, Collector<Long> out) {
            out.collect(value);
        }
    }

    private static RunningJob start(Class<?> type) {
        JobBuilder job = JobBuilder.named("typed");
        job.source("numbers", Sources.generator(RateProfile.constant(1_000), seq -> seq))
                .keyBy(seq -> "k" + (seq % 10))
                .process("hold", () -> new Holding<>(type))
                .sink("sink", Sinks.counting());
        return RunningJob.start(job.build(), JobConfig.defaults());
    }

    @Test
    void aStateTheCodecCannotWriteStopsTheJobAtStartNamingTheStateAndType() throws Exception {
        try (RunningJob job = start(Opaque.class)) {
            assertThatThrownBy(() -> job.await(Duration.ofSeconds(30)))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("operator 'hold': state 'held'")
                    .hasMessageContaining(Opaque.class.getName())
                    .hasMessageContaining("cannot have written");
            assertThat(job.metrics().instancesOf("hold")).allMatch(i -> i.recordsIn() == 0);
        }
    }

    @Test
    void aStateTheCodecCannotReadBackStopsTheJobAtStartNamingTheStateAndType() throws Exception {
        try (RunningJob job = start(OneWay.class)) {
            assertThatThrownBy(() -> job.await(Duration.ofSeconds(30)))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("operator 'hold': state 'held'")
                    .hasMessageContaining(OneWay.class.getName())
                    .hasMessageContaining("cannot have read back");
        }
    }

    @Test
    void aRecordStateStartsAndRuns() throws Exception {
        try (RunningJob job = start(Total.class)) {
            assertThat(job.awaitRunning(Duration.ofSeconds(30))).isTrue();
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        }
    }
}
