package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** For every (p, p') in 1..8: state written at p and restored at p' is complete and disjoint. */
class SavepointGridTest {
    private static final long RECORDS = 6_000;
    private static final int KEYS = 400;

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void stateWrittenAtAnyParallelismRestoresCompletelyAtAnyOther(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Map<Object, Long> expected = CountingJob.expected(RECORDS, KEYS);
        for (int p = 1; p <= 8; p++) {
            JobGraph written = CountingJob.graph(RECORDS, KEYS, Map.of(CountingJob.COUNT, p));
            Path savepoint = runToSavepoint(written, dir.resolve("p" + p), backend);
            for (int restoredP = 1; restoredP <= 8; restoredP++) {
                JobGraph restored = written.withParallelism(Map.of(CountingJob.COUNT, restoredP));
                List<Map<Object, Long>> instances =
                        SnapshotInspector.keyedState(
                                savepoint, restored, CountingJob.COUNT, CountingJob.COUNT_STATE);
                assertCompleteAndDisjoint(
                        instances,
                        expected,
                        restoredP,
                        "written at " + p + ", restored at " + restoredP);
            }
        }
    }

    private static Path runToSavepoint(
            JobGraph graph, Path storage, StateBackendConfig.Kind backend) throws Exception {
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(StateBackendConfig.named(backend.name()))
                        .withBatchSize(64)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(storage));
        try (RunningJob job = RunningJob.start(graph, config)) {
            CountingJob.awaitQuiescence(job, Duration.ofSeconds(20));
            Path savepoint = job.stopWithSavepoint(Duration.ofSeconds(20));
            assertThat(job.status()).isEqualTo(RunningJob.Status.STOPPED);
            return savepoint;
        }
    }

    private static void assertCompleteAndDisjoint(
            List<Map<Object, Long>> instances,
            Map<Object, Long> expected,
            int parallelism,
            String what) {
        Set<Object> seen = new HashSet<>();
        for (int i = 0; i < instances.size(); i++) {
            KeyGroupRange range = KeyGroups.rangeFor(i, 128, parallelism);
            for (Map.Entry<Object, Long> entry : instances.get(i).entrySet()) {
                assertThat(seen.add(entry.getKey()))
                        .as(what + ": key " + entry.getKey() + " held twice")
                        .isTrue();
                assertThat(range.contains(KeyGroups.keyGroupFor(entry.getKey(), 128)))
                        .as(what + ": key " + entry.getKey() + " on instance " + i)
                        .isTrue();
                assertThat(entry.getValue())
                        .as(what + ": count of " + entry.getKey())
                        .isEqualTo(expected.get(entry.getKey()));
            }
        }
        assertThat(seen).as(what + ": every key restored").isEqualTo(expected.keySet());
    }
}
