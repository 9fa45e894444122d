package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * A runner process whose job keeps a 1,000-byte value for each of {@code keys} keys in RocksDB,
 * then stops with a savepoint and prints {@code savepoint <dir>}. Args: storage folder, keys.
 */
public final class LargeStateRunner {
    static final int VALUE_BYTES = 1_000;
    static final StateDescriptor<String> PAYLOAD = StateDescriptor.value("payload", String.class);

    private LargeStateRunner() {}

    public static void main(String[] args) throws Exception {
        Path storage = Path.of(args[0]);
        long keys = Long.parseLong(args[1]);
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(
                                StateBackendConfig.rocksDb().withMemory(8L << 20, 2L << 20))
                        .withCheckpointing(CheckpointConfig.savepointsOnly(storage));
        try (RunningJob job = RunningJob.start(graph(keys), config)) {
            Await.until(
                    Duration.ofMinutes(2),
                    "every key to be stored",
                    () ->
                            job.metrics().instancesOf("store").stream()
                                            .mapToLong(i -> i.recordsIn())
                                            .sum()
                                    >= keys);
            System.out.println("savepoint " + job.stopWithSavepoint(Duration.ofMinutes(2)));
        }
    }

    static JobGraph graph(long keys) {
        JobBuilder job = JobBuilder.named("large-state");
        job.source("keys", Sources.replayable(null, keys, seq -> seq))
                .keyBy(seq -> seq)
                .process("store", Store::new)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        return job.build();
    }

    /** Keeps a 1,000-byte value per key, made from the key so that it can be checked. */
    static final class Store extends KeyedProcessFunction<Long, Long, Long> {
        private ValueState<String> payload;

        @Override
        public void open(KeyedRuntimeContext context) {
            payload = context.valueState(PAYLOAD);
        }

        @Override
        public void processElement(Long seq, Context<Long> context, Collector<Long> out) {
            payload.update(value(seq));
        }
    }

    static String value(long key) {
        char[] chars = new char[VALUE_BYTES];
        Arrays.fill(chars, (char) ('a' + key % 26));
        return key + new String(chars, 0, VALUE_BYTES - Long.toString(key).length());
    }
}
