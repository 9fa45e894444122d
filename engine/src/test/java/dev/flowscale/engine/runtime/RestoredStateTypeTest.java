package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * State restored from a savepoint that the restoring job's codec cannot read (its type changed
 * since the savepoint was written) stops the job as the state is declared, naming the operator, the
 * state and the type, before any record is processed; on RocksDB it used to fail only when a record
 * read a value, and on the heap without the operator or the type.
 */
class RestoredStateTypeTest {

    /** The type the savepoint is written with. */
    public record Before(long count) {}

    /** The same field as a list: a number in the savepoint cannot be read as one. */
    public record After(List<String> count) {}

    /** Holds one value per key: writes {@code make}'s value, or only reads if it is null. */
    static final class Holding<T> extends KeyedProcessFunction<String, Long, Long> {
        private final StateDescriptor<T> descriptor;
        private final LongFunction<T> make;
        private ValueState<T> state;

        Holding(Class<T> type, LongFunction<T> make) {
            this.descriptor = StateDescriptor.value("held", type);
            this.make = make;
        }

        @Override
        public void open(KeyedRuntimeContext context) {
            state = context.valueState(descriptor);
        }

        @Override
        public void processElement(Long value, Context<String> context, Collector<Long> out) {
            if (make == null) {
                state.value();
            } else {
                state.update(make.apply(value));
            }
            out.collect(value);
        }
    }

    @TempDir Path storage;

    @ParameterizedTest
    @ValueSource(strings = {"heap", "rocksdb"})
    void stateWrittenForAnotherTypeIsRefusedAtRestoreNamingTheStateAndType(String backend)
            throws Exception {
        Path savepoint;
        try (RunningJob writer =
                RunningJob.start(graph(Before.class, Before::new), config(backend, "writer"))) {
            awaitRecords(writer);
            savepoint = writer.stopWithSavepoint(Duration.ofSeconds(60));
        }

        try (RunningJob reader =
                RunningJob.start(graph(After.class, null), config(backend, "reader"), savepoint)) {
            assertThatThrownBy(() -> reader.await(Duration.ofSeconds(60)))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("operator 'hold': restored state 'held'")
                    .hasMessageContaining(After.class.getName());
            assertThat(reader.metrics().instancesOf("hold")).allMatch(i -> i.recordsIn() == 0);
        }
    }

    private static <T> JobGraph graph(Class<T> type, LongFunction<T> make) {
        JobBuilder job = JobBuilder.named("typed");
        job.source("numbers", Sources.generator(RateProfile.constant(1_000), seq -> seq))
                .keyBy(seq -> "k" + (seq % 10))
                .process("hold", () -> new Holding<>(type, make))
                .sink("sink", Sinks.counting());
        return job.build();
    }

    private JobConfig config(String backend, String folder) {
        return JobConfig.defaults()
                .withStateBackend(StateBackendConfig.named(backend))
                .withCheckpointing(CheckpointConfig.savepointsOnly(storage.resolve(folder)));
    }

    /** Waits, with a deadline, until the writer has put values into its state. */
    private static void awaitRecords(RunningJob job) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (job.metrics().instancesOf("hold").stream().mapToLong(i -> i.recordsIn()).sum()
                < 100) {
            assertThat(System.nanoTime()).as("records reach the state").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
