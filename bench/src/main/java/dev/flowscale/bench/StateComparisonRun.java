package dev.flowscale.bench;

import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.runner.api.RescaleView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One fork of {@link StateComparisonBenchmark}: one contender at one state size. Fills the state
 * (one 1,000-byte value for each of MB × 1,000 keys, at parallelism 2), takes a checkpoint, then
 * rescales 2 → 3 and 3 → 6 while the stream goes on, and prints one {@code RESULT} line.
 */
public final class StateComparisonRun {
    private StateComparisonRun() {}

    public static void main(String[] args) throws Exception {
        String contender = args[0];
        int mb = Integer.parseInt(args[1]);
        long rate = Long.parseLong(args[2]);
        long keys = mb * 1_000L;
        Path dir = Files.createTempDirectory("flowscale-state-cmp-");
        try {
            Result r =
                    switch (contender) {
                        case "flowscale-heap" -> flowscale(false, keys, rate, dir);
                        case "flowscale-rocksdb" -> flowscale(true, keys, rate, dir);
                        case "flink-hashmap" -> FlinkStateJob.run(false, keys, rate, dir);
                        case "flink-rocksdb" -> FlinkStateJob.run(true, keys, rate, dir);
                        default ->
                                throw new IllegalArgumentException(
                                        "unknown contender " + contender);
                    };
            System.out.printf(
                    "RESULT checkpointMs=%d savepointBytes=%d downP1Ms=%d down2PMs=%d%n",
                    r.checkpointMs(), r.savepointBytes(), r.downP1Ms(), r.down2PMs());
        } finally {
            SavepointBenchmark.delete(dir);
        }
        System.exit(0);
    }

    /** What one contender measured. */
    record Result(long checkpointMs, long savepointBytes, long downP1Ms, long down2PMs) {}

    private static Result flowscale(boolean rocksdb, long keys, long rate, Path dir)
            throws Exception {
        Path snapshots = dir.resolve("snapshots");
        StateBackendConfig backend =
                rocksdb
                        ? StateBackendConfig.rocksDb().withLocalDir(dir.resolve("local"))
                        : StateBackendConfig.heap();
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(backend)
                        .withCheckpointing(
                                CheckpointConfig.savepointsOnly(snapshots)
                                        .withTimeout(Duration.ofMinutes(10)));
        JobBuilder builder = JobBuilder.named("state-comparison");
        builder.source("keys", Sources.generator(RateProfile.constant(rate), seq -> seq))
                .parallelism(1)
                .keyBy(seq -> seq % keys)
                .process("store", SavepointBenchmark.Store::new)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        JobGraph graph = builder.build();
        try (RunningJob job = RunningJob.start(graph, config)) {
            SavepointBenchmark.awaitProcessed(job, keys);
            long t0 = System.nanoTime();
            job.triggerCheckpoint().get();
            long checkpointMs = (System.nanoTime() - t0) / 1_000_000;
            RescaleView p1 = job.rescale(Map.of("store", 3), Duration.ofMinutes(10));
            long bytes = awaitWritten(snapshots, p1.savepointPath());
            RescaleView p2 = job.rescale(Map.of("store", 6), Duration.ofMinutes(10));
            awaitWritten(snapshots, p2.savepointPath());
            System.out.println(
                    "kept/moved 2->3 "
                            + p1.keyGroupsKept()
                            + "/"
                            + p1.keyGroupsMoved()
                            + ", 3->6 "
                            + p2.keyGroupsKept()
                            + "/"
                            + p2.keyGroupsMoved());
            job.cancel();
            return new Result(
                    checkpointMs, bytes, p1.downtime().toMillis(), p2.downtime().toMillis());
        }
    }

    /**
     * Waits until the rescale's savepoint is complete (a hand-over writes it afterwards); its size.
     */
    private static long awaitWritten(Path storage, Path savepoint) throws Exception {
        while (!new CheckpointStorage(storage).completedSnapshots().contains(savepoint)) {
            Thread.sleep(50);
        }
        return size(savepoint);
    }

    static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
