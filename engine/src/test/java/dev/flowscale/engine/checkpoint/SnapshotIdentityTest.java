package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A state file moved from one snapshot into another of the same job, with its CRC-32 and the
 * manifest's checksum recomputed, passes every integrity check; its identity header refuses it.
 */
class SnapshotIdentityTest {
    private static final JobGraph GRAPH =
            CountingJob.graph(2_000, 40, Map.of(CountingJob.COUNT, 2));

    @TempDir static Path storage;

    /** Per backend: a savepoint taken while the job runs, and its final one. */
    private static final Map<StateBackendConfig.Kind, Path[]> PAIRS =
            new EnumMap<>(StateBackendConfig.Kind.class);

    @BeforeAll
    static void takeTwoSavepointsOfOneJobOnEachBackend() throws Exception {
        PAIRS.put(StateBackendConfig.Kind.HEAP, twoSavepoints(StateBackendConfig.heap()));
        PAIRS.put(StateBackendConfig.Kind.ROCKSDB, twoSavepoints(StateBackendConfig.rocksDb()));
    }

    private static Path[] twoSavepoints(StateBackendConfig backend) throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(backend)
                        .withCheckpointing(
                                CheckpointConfig.savepointsOnly(
                                        storage.resolve(backend.kind().name())));
        try (RunningJob job = RunningJob.start(GRAPH, config)) {
            Path first = job.triggerSavepoint().get(20, TimeUnit.SECONDS);
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(20));
            return new Path[] {first, job.stopWithSavepoint(Duration.ofSeconds(20))};
        }
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void aStateFileFromAnotherSnapshotOfTheSameJobIsRefused(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Path[] pair = PAIRS.get(backend);
        Path target = SnapshotFiles.copyTree(pair[1], dir, "target");
        // The same instance's file (entries are listed in the order tasks acknowledged), so that
        // it holds the key groups the target's entry names.
        byte[] foreign =
                Files.readAllBytes(
                        SnapshotFiles.stateFile(pair[0], CountingJob.COUNT, entryOf(pair[0], 1)));
        SnapshotFiles.rewriteStateFile(target, CountingJob.COUNT, entryOf(target, 1), foreign);

        long from = SnapshotReader.metadata(pair[0]).checkpointId();
        long into = SnapshotReader.metadata(target).checkpointId();
        assertThat(from).isNotEqualTo(into);
        assertThatThrownBy(() -> SnapshotReader.read(target, GRAPH))
                .isInstanceOf(SnapshotException.class)
                .hasMessageContaining("holds a file of another snapshot")
                .hasMessageContaining(CountingJob.COUNT + "-1.state belongs to snapshot " + from)
                .hasMessageContaining("this manifest is snapshot " + into);
    }

    /** The index of instance {@code instance}'s entry among the count operator's entries. */
    private static int entryOf(Path snapshot, int instance) throws Exception {
        var entries = SnapshotFiles.instances(SnapshotFiles.manifest(snapshot), CountingJob.COUNT);
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).get("instance").asInt() == instance) {
                return i;
            }
        }
        throw new AssertionError("no entry for instance " + instance + " in " + snapshot);
    }

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void bothSnapshotsRestoreAsWritten(StateBackendConfig.Kind backend) {
        for (Path snapshot : PAIRS.get(backend)) {
            assertThat(SnapshotReader.read(snapshot, GRAPH).checkpointId())
                    .isEqualTo(SnapshotReader.metadata(snapshot).checkpointId());
        }
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                PAIRS.get(backend)[1],
                                GRAPH,
                                CountingJob.COUNT,
                                CountingJob.COUNT_STATE))
                .isEqualTo(CountingJob.expected(2_000, 40));
    }
}
