package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorProgress;
import dev.flowscale.engine.source.GeneratorSplit;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endless, rate-limited stream (as wordcount's sentences in the operator's kill test) cancelled
 * between checkpoints, recovered from the newest one behind its schedule, and stopped with a
 * savepoint: each key's count is that of exactly the records the savepoint's source positions say
 * were emitted. The positions are four uneven splits then, not a prefix of the stream, so only this
 * comparison tells records lost or counted twice from a source that simply advanced its splits at
 * different paces.
 */
class EndlessStreamRecoveryTest {
    private static final int KEYS = 300;

    /** Faster than the job can count on a shared machine: the source always has a backlog. */
    private static final RateProfile RATE = RateProfile.constant(2_000_000);

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aJobRecoveredBehindItsScheduleCountsExactlyTheRecordsItsSourcePositionsSayWereEmitted(
            @TempDir Path dir) throws Exception {
        JobGraph graph =
                CountingJob.graph(
                        Sources.replayable(RATE, Long.MAX_VALUE, seq -> seq),
                        KEYS,
                        Map.of(CountingJob.MAP, 2, CountingJob.COUNT, 3),
                        x -> x);
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(100), dir));
        try (RunningJob first = RunningJob.start(graph, config)) {
            awaitCheckpoints(first, 3);
            first.cancel();
        }
        List<String> restore = new ArrayList<>();
        Path savepoint;
        try (RunningJob recovered = RunningJob.recover(graph, config, null, restore::add)) {
            awaitCheckpoints(recovered, 2);
            savepoint = recovered.stopWithSavepoint(WAIT);
        }
        List<GeneratorSplit> positions =
                SnapshotInspector.sourceSplits(savepoint, graph, CountingJob.SOURCE).stream()
                        .map(GeneratorSplit.class::cast)
                        .toList();
        long[] emitted = GeneratorProgress.emitted(positions).toArray();
        System.out.printf(
                "%s; the savepoint's source positions %s: %d records, the highest %d%n",
                restore.get(restore.size() - 1),
                positions,
                emitted.length,
                emitted[emitted.length - 1]);

        assertThat(restore.get(restore.size() - 1))
                .as("what the second run restored")
                .contains("restoring the latest complete snapshot in storage, checkpoint");
        assertThat(
                        SnapshotInspector.mergedKeyedState(
                                savepoint, graph, CountingJob.COUNT, CountingJob.COUNT_STATE))
                .as("each key's count: of the records below the source positions, each once")
                .isEqualTo(countsOf(emitted));
    }

    private static void awaitCheckpoints(RunningJob job, long completed) {
        Await.until(
                WAIT,
                completed + " checkpoints completed",
                () -> job.checkpointStatus().completed() >= completed);
    }

    private static Map<Object, Long> countsOf(long[] records) {
        Map<Object, Long> counts = new HashMap<>();
        for (long seq : records) {
            counts.merge("k" + (seq % KEYS), 1L, Long::sum);
        }
        return counts;
    }
}
