package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.CheckpointListener;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A rescale inside the process hands every key group to its new owner (heap: in memory; RocksDB:
 * stores made from the stopped ones) and writes its savepoint afterwards: that savepoint is
 * complete and restores exactly, and a runner killed right after the hand-over recovers exactly
 * from what its storage holds.
 */
class HandOverRescaleTest {
    private static final long RECORDS = 80_000;
    private static final int KEYS = 1_000;
    private static final RateProfile RATE = RateProfile.constant(80_000);

    private static JobGraph graph() {
        return CountingJob.graph(RATE, RECORDS, KEYS, Map.of(CountingJob.COUNT, 2), x -> x);
    }

    private static JobConfig config(Path storage, Duration interval) {
        return JobConfig.defaults()
                .withBatchSize(128)
                .withCheckpointing(CheckpointConfig.every(interval, storage));
    }

    private static JobConfig config(
            Path storage, Duration interval, StateBackendConfig.Kind backend, Path local) {
        return config(storage, interval)
                .withStateBackend(StateBackendConfig.named(backend.name()).withLocalDir(local));
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void theSavepointWrittenAfterAHandOverIsCompleteAndRestoresExactly(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Path savepoint;
        Path local = dir.resolve("local");
        try (RunningJob job =
                RunningJob.start(
                        graph(), config(dir.resolve("a"), Duration.ZERO, backend, local))) {
            awaitCounted(job, 10 * KEYS);
            RescaleView result = job.rescale(Map.of(CountingJob.COUNT, 3), Duration.ofSeconds(30));
            assertThat(result.keyGroupsKept() + result.keyGroupsMoved())
                    .as("every key group handed over in memory")
                    .isEqualTo(graph().keyGroups());
            assertThat(result.keyGroupsMoved()).isPositive();
            savepoint = result.savepointPath();
            Await.until(
                    Duration.ofSeconds(20),
                    "the hand-over's savepoint to be written",
                    () ->
                            new CheckpointStorage(dir.resolve("a"))
                                    .completedSnapshots()
                                    .contains(savepoint));
            job.cancel();
        }
        JobGraph at4 = graph().withParallelism(Map.of(CountingJob.COUNT, 4));
        try (RunningJob job =
                RunningJob.start(
                        at4, config(dir.resolve("b"), Duration.ZERO, backend, local), savepoint)) {
            assertFinalCountsExact(job);
        }
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void aRunnerKilledRightAfterAHandOverRecoversExactlyFromItsStorage(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        JobConfig config =
                config(
                        dir.resolve("storage"),
                        Duration.ofMillis(100),
                        backend,
                        dir.resolve("local"));
        JobGraph at3 = graph().withParallelism(Map.of(CountingJob.COUNT, 3));
        try (RunningJob job = RunningJob.start(graph(), config)) {
            Await.until(
                    Duration.ofSeconds(20),
                    "a periodic checkpoint to complete",
                    () ->
                            new CheckpointStorage(dir.resolve("storage"))
                                    .latestCheckpoint()
                                    .isPresent());
            job.rescale(Map.of(CountingJob.COUNT, 3), Duration.ofSeconds(30));
            // A kill: nothing is stopped cleanly; a savepoint still being written is left
            // incomplete.
            job.cancel();
        }
        List<String> log = new ArrayList<>();
        try (RunningJob job = RunningJob.recover(at3, config, null, log::add)) {
            assertThat(log).first().asString().contains("restoring");
            assertFinalCountsExact(job);
        }
    }

    @Test
    void aFunctionThatCommitsOnCheckpointsOpensOnlyOnceTheHandOverSavepointIsWritten(
            @TempDir Path dir) throws Exception {
        JobBuilder builder = JobBuilder.named("committing");
        builder.source("numbers", CountingJob.source(RATE, RECORDS))
                .process("commit", () -> new Committer(dir))
                .sink("sink", Sinks.counting());
        JobGraph graph = builder.build();
        Committer.completeAtOpen.clear();
        try (RunningJob job = RunningJob.start(graph, config(dir, Duration.ZERO))) {
            job.awaitRunning(Duration.ofSeconds(20));
            RescaleView result = job.rescale(Map.of("commit", 2), Duration.ofSeconds(30));
            assertThat(Committer.completeAtOpen)
                    .as(
                            "what storage held complete when each instance opened: the first run's"
                                    + " (nothing), then both instances of the new run")
                    .hasSize(3);
            assertThat(Committer.completeAtOpen.subList(1, 3))
                    .allSatisfy(complete -> assertThat(complete).contains(result.savepointPath()));
            job.cancel();
        }
    }

    /** Notes, as it opens, which snapshots its storage holds complete. */
    static final class Committer extends ProcessFunction<Long, Long> implements CheckpointListener {
        static final List<List<Path>> completeAtOpen = new CopyOnWriteArrayList<>();
        private final Path storage;

        Committer(Path storage) {
            this.storage = storage;
        }

        @Override
        public void open(OperatorRuntimeContext context) {
            completeAtOpen.add(new CheckpointStorage(storage).completedSnapshots());
        }

        @Override
        public void processElement(Long value, Collector<Long> out) {
            out.collect(value);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {}
    }

    private static void awaitCounted(RunningJob job, long records) {
        Await.until(
                Duration.ofSeconds(20),
                "the counter to take " + records + " records",
                () ->
                        job.metrics().instancesOf(CountingJob.COUNT).stream()
                                        .mapToLong(i -> i.recordsIn())
                                        .sum()
                                > records);
    }

    private static void assertFinalCountsExact(RunningJob job) throws Exception {
        CountingJob.awaitQuiescence(job, Duration.ofSeconds(30));
        Path finalState = job.stopWithSavepoint(Duration.ofSeconds(30));
        Map<Object, Long> counts =
                SnapshotInspector.mergedKeyedState(
                        finalState, job.graph(), CountingJob.COUNT, CountingJob.COUNT_STATE);
        assertThat(counts).isEqualTo(CountingJob.expected(RECORDS, KEYS));
    }
}
