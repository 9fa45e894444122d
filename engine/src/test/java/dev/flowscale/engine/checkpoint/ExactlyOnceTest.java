package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RestartStrategy;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.RocksDbBackends;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.testsupport.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A keyed counting job over a fixed, replayable input ends with exactly the per-key counts of a run
 * without rescales or failures, however often it is rescaled and when a task fails.
 */
class ExactlyOnceTest {
    private static final long RECORDS = 240_000;
    private static final int KEYS = 1_000;
    private static final RateProfile RATE = RateProfile.constant(80_000);

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void countsAreExactAfterManyRandomRescales(StateBackendConfig.Kind backend, @TempDir Path dir)
            throws Exception {
        JobGraph graph = CountingJob.graph(RATE, RECORDS, KEYS, Map.of(), x -> x);
        Random random = new Random(20261129L);
        Path local = dir.resolve("local");
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(
                                StateBackendConfig.named(backend.name()).withLocalDir(local))
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir.resolve("storage")));
        try (RunningJob job = RunningJob.start(graph, config)) {
            for (int i = 0; i < 8; i++) {
                Thread.sleep(100 + random.nextInt(250));
                Map<String, Integer> target = new LinkedHashMap<>();
                for (String op : graph.parallelism().keySet()) {
                    target.put(op, 1 + random.nextInt(8));
                }
                RescaleView result = job.rescale(target, Duration.ofSeconds(30));
                assertThat(result.after()).containsAllEntriesOf(target);
                assertThat(job.graph().parallelism()).isEqualTo(result.after());
                assertThat(result.keyGroupsKept() + result.keyGroupsMoved())
                        .as("every key group of the one keyed operator is kept or moved")
                        .isEqualTo(graph.keyGroups());
                if (backend == StateBackendConfig.Kind.ROCKSDB) {
                    // The stopped stores close once the savepoint is written from them.
                    long running = target.get(CountingJob.COUNT);
                    Await.until(
                            Duration.ofSeconds(20),
                            "one RocksDB per running instance; the others closed and deleted",
                            () -> folders(local) == running);
                }
            }
            assertFinalCountsExact(job, graph);
            assertThat(folders(local)).as("RocksDB folders left after the job stopped").isZero();
        }
    }

    private static void awaitStateForEveryKey(RunningJob job) {
        Await.until(
                Duration.ofSeconds(20),
                "the counter to hold state for every key",
                () ->
                        job.metrics().instancesOf(CountingJob.COUNT).stream()
                                        .mapToLong(i -> i.recordsIn())
                                        .sum()
                                > 10 * KEYS);
    }

    /** The stores' folders in this process's working folder under {@code local}. */
    private static long folders(Path local) {
        if (!Files.isDirectory(local)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(RocksDbBackends.workingFolder(local))) {
            return files.filter(Files::isDirectory).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void aRescaleReadsOnlyTheKeyGroupsThatChangeOwner(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        JobGraph graph =
                CountingJob.graph(RATE, RECORDS, KEYS, Map.of(CountingJob.COUNT, 2), x -> x);
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(StateBackendConfig.named(backend.name()))
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        try (RunningJob job = RunningJob.start(graph, config)) {
            awaitStateForEveryKey(job);
            RescaleView result = job.rescale(Map.of(CountingJob.COUNT, 3), Duration.ofSeconds(30));

            int stay =
                    backend == StateBackendConfig.Kind.HEAP
                            ? sameIndex(graph.keyGroups())
                            : inTheMostOverlappingStore(graph.keyGroups());
            assertThat(stay).as("2 -> 3 keeps some key groups in place").isPositive();
            assertThat(result.keyGroupsKept()).isEqualTo(stay);
            assertThat(result.keyGroupsMoved()).isEqualTo(graph.keyGroups() - stay);
            assertFinalCountsExact(job, graph);
        }
    }

    /** Heap, 2 -> 3: key groups whose new owner has the index of their old one. */
    private static int sameIndex(int keyGroups) {
        int stay = 0;
        for (int group = 0; group < keyGroups; group++) {
            int owner = KeyGroups.operatorIndexFor(group, keyGroups, 3);
            stay += owner < 2 && KeyGroups.rangeFor(owner, keyGroups, 2).contains(group) ? 1 : 0;
        }
        return stay;
    }

    /**
     * RocksDB, 2 -> 3: each new instance starts from the old store that shares the most key groups
     * with it; those are not copied.
     */
    private static int inTheMostOverlappingStore(int keyGroups) {
        int stay = 0;
        for (int next = 0; next < 3; next++) {
            KeyGroupRange range = KeyGroups.rangeFor(next, keyGroups, 3);
            int most = 0;
            for (int old = 0; old < 2; old++) {
                most =
                        Math.max(
                                most,
                                KeyGroups.rangeFor(old, keyGroups, 2).intersection(range).size());
            }
            stay += most;
        }
        return stay;
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void countsAreExactAfterATaskFailureAndRestartFromCheckpoint(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        AtomicBoolean failed = new AtomicBoolean();
        MapFunction<Long, Long> failOnce =
                seq -> {
                    if (seq == RECORDS / 2 && failed.compareAndSet(false, true)) {
                        throw new IllegalStateException("injected failure at record " + seq);
                    }
                    return seq;
                };
        JobGraph graph =
                CountingJob.graph(
                        RATE,
                        RECORDS,
                        KEYS,
                        Map.of(CountingJob.MAP, 3, CountingJob.COUNT, 4),
                        failOnce);
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(StateBackendConfig.named(backend.name()))
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(150), dir))
                        .withRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100)));
        try (RunningJob job = RunningJob.start(graph, config)) {
            Await.until(
                    Duration.ofSeconds(20),
                    "the job to restart after the injected failure",
                    () -> job.restarts() > 0);
            assertThat(failed).as("the failure was injected").isTrue();
            assertThat(job.restarts()).as("restarted after the failure").isEqualTo(1);
            assertFinalCountsExact(job, graph);
        }
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void countsAreExactWhenASavepointMovesToTheOtherBackend(
            StateBackendConfig.Kind from, @TempDir Path dir) throws Exception {
        StateBackendConfig.Kind to =
                from == StateBackendConfig.Kind.HEAP
                        ? StateBackendConfig.Kind.ROCKSDB
                        : StateBackendConfig.Kind.HEAP;
        JobGraph graph =
                CountingJob.graph(RATE, RECORDS, KEYS, Map.of(CountingJob.COUNT, 2), x -> x);
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        Path savepoint;
        try (RunningJob job =
                RunningJob.start(
                        graph, config.withStateBackend(StateBackendConfig.named(from.name())))) {
            awaitStateForEveryKey(job);
            savepoint = job.stopWithSavepoint(Duration.ofSeconds(30));
        }
        JobGraph rescaled = graph.withParallelism(Map.of(CountingJob.COUNT, 3));
        try (RunningJob job =
                RunningJob.start(
                        rescaled,
                        config.withStateBackend(StateBackendConfig.named(to.name())),
                        savepoint)) {
            assertFinalCountsExact(job, rescaled);
        }
    }

    private static void assertFinalCountsExact(RunningJob job, JobGraph graph) throws Exception {
        CountingJob.awaitQuiescence(job, Duration.ofSeconds(30));
        Path finalState = job.stopWithSavepoint(Duration.ofSeconds(30));
        Map<Object, Long> counts =
                SnapshotInspector.mergedKeyedState(
                        finalState, job.graph(), CountingJob.COUNT, CountingJob.COUNT_STATE);
        assertThat(counts).isEqualTo(CountingJob.expected(RECORDS, KEYS));
    }
}
