package dev.flowscale.bench;

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
import dev.flowscale.runner.api.RescaleView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Measures stop-with-savepoint, restore and total rescale downtime for keyed state of a given size,
 * and the write and read throughput. Usage: {@code SavepointBenchmark [MB ...]}, default 1 100
 * 1000. Each size runs in this JVM; give it enough heap (-Xmx8g for 1 GB). The state backend is
 * {@code -Dbench.stateBackend=heap} (default) or {@code rocksdb}.
 */
public final class SavepointBenchmark {
    private static final int VALUE_BYTES = 1000;
    private static final StateDescriptor<String> VALUE =
            StateDescriptor.value("payload", String.class);

    private SavepointBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes =
                args.length == 0
                        ? new int[] {1, 100, 1000}
                        : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        System.out.printf(
                "%-8s %12s %10s %12s %12s %12s %12s %12s %12s%n",
                "state",
                "files",
                "keys",
                "stop+save ms",
                "restore ms",
                "downtime ms",
                "write MB/s",
                "read MB/s",
                "kept/moved");
        for (int mb : sizes) {
            run(mb);
        }
    }

    private static void run(int megabytes) throws Exception {
        long keys = (long) megabytes * 1_000_000 / VALUE_BYTES;
        Path storage = Files.createTempDirectory("flowscale-savepoint-bench");
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(
                                StateBackendConfig.named(
                                        System.getProperty("bench.stateBackend", "heap")))
                        .withCheckpointing(CheckpointConfig.savepointsOnly(storage));
        JobGraph graph = graph(keys, 2);
        try (RunningJob job = RunningJob.start(graph, config)) {
            awaitProcessed(job, keys);
            long t0 = System.nanoTime();
            Path savepoint = job.stopWithSavepoint(Duration.ofMinutes(10));
            long stopNanos = System.nanoTime() - t0;
            long bytes = size(savepoint);
            long t1 = System.nanoTime();
            try (RunningJob restored =
                    RunningJob.start(
                            graph.withParallelism(Map.of("store", 3)), config, savepoint)) {
                restored.awaitRunning(Duration.ofMinutes(10));
                long restoreNanos = System.nanoTime() - t1;
                RescaleView rescale = restored.rescale(Map.of("store", 2), Duration.ofMinutes(10));
                System.out.printf(
                        "%-8s %12s %10d %12.0f %12.0f %12d %12.0f %12.0f %12s%n",
                        megabytes + " MB",
                        String.format("%,d B", bytes),
                        keys,
                        stopNanos / 1e6,
                        restoreNanos / 1e6,
                        rescale.downtime().toMillis(),
                        bytes / 1e6 / (stopNanos / 1e9),
                        bytes / 1e6 / (restoreNanos / 1e9),
                        rescale.keyGroupsKept() + "/" + rescale.keyGroupsMoved());
            }
        } finally {
            delete(storage);
        }
    }

    static JobGraph graph(long keys, int parallelism) {
        JobBuilder job = JobBuilder.named("savepoint-bench");
        job.source("keys", Sources.replayable(null, keys, seq -> seq))
                .parallelism(2)
                .keyBy(seq -> seq)
                .process("store", Store::new)
                .parallelism(parallelism)
                .sink("sink", Sinks.counting());
        return job.build();
    }

    static void awaitProcessed(RunningJob job, long keys) throws InterruptedException {
        while (job.metrics().instancesOf("store").stream().mapToLong(i -> i.recordsIn()).sum()
                < keys) {
            Thread.sleep(20);
        }
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToLong(p -> p.toFile().length()).sum();
        }
    }

    static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Keeps a 1,000-byte value per key. */
    static final class Store extends KeyedProcessFunction<Long, Long, Long> {
        private ValueState<String> payload;

        @Override
        public void open(KeyedRuntimeContext context) {
            payload = context.valueState(VALUE);
        }

        @Override
        public void processElement(Long seq, Context<Long> context, Collector<Long> out) {
            StringBuilder value = new StringBuilder(VALUE_BYTES);
            String prefix = Long.toString(seq);
            while (value.length() < VALUE_BYTES) {
                value.append(prefix).append('-');
            }
            value.setLength(VALUE_BYTES);
            payload.update(value.toString());
        }
    }
}
