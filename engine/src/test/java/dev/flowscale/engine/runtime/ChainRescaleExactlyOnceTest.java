package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.testing.CountingJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The counting job (source → tag → keyBy → count → sink) runs as two chains, source+tag and
 * count+sink. A rescale that gives the tag and the count other parallelisms splits both chains; the
 * next one gives them back and re-forms both. Each restore must rebuild the chains from the new
 * parallelisms, and the final per-key counts must be exact on either state backend.
 */
class ChainRescaleExactlyOnceTest {
    private static final long RECORDS = 200_000;
    private static final int KEYS = 500;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(StateBackendConfig.Kind.class)
    void countsAreExactAcrossARescaleThatSplitsChainsAndOneThatReFormsThem(
            StateBackendConfig.Kind backend, @TempDir Path dir) throws Exception {
        Map<String, Integer> paired =
                Map.of(CountingJob.SOURCE, 2, CountingJob.MAP, 2, CountingJob.COUNT, 2, "sink", 2);
        JobGraph graph =
                CountingJob.graph(RateProfile.constant(60_000), RECORDS, KEYS, paired, x -> x);
        JobConfig config =
                JobConfig.defaults()
                        .withStateBackend(StateBackendConfig.named(backend.name()))
                        .withBatchSize(128)
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        try (RunningJob job = RunningJob.start(graph, config)) {
            assertThat(heads(job)).isEqualTo(chained());
            CountingJob.awaitCounted(job, RECORDS / 4, TIMEOUT);

            job.rescale(Map.of(CountingJob.MAP, 3, CountingJob.COUNT, 3), TIMEOUT);
            assertThat(heads(job))
                    .as("tag and count at 3, source and sink at 2: four chains")
                    .containsEntry(CountingJob.MAP, CountingJob.MAP)
                    .containsEntry(CountingJob.COUNT, CountingJob.COUNT)
                    .containsEntry("sink", "sink");
            // Counted anew by the restored run.
            CountingJob.awaitCounted(job, RECORDS / 10, TIMEOUT);

            job.rescale(Map.of(CountingJob.MAP, 2, CountingJob.COUNT, 2), TIMEOUT);
            assertThat(heads(job)).as("chains re-formed").isEqualTo(chained());

            assertThat(CountingJob.finalCounts(job, TIMEOUT))
                    .isEqualTo(CountingJob.expected(RECORDS, KEYS));
        }
    }

    /** Source and tag on one thread, count and sink on another. */
    private static Map<String, String> chained() {
        return Map.of(
                CountingJob.SOURCE,
                CountingJob.SOURCE,
                CountingJob.MAP,
                CountingJob.SOURCE,
                CountingJob.COUNT,
                CountingJob.COUNT,
                "sink",
                CountingJob.COUNT);
    }

    /** Each running operator's chain head, read from the running tasks. */
    private static Map<String, String> heads(RunningJob job) {
        Map<String, String> heads = new TreeMap<>();
        for (Task task : job.tasks()) {
            heads.put(task.context.operatorId(), task.chain.head().context.operatorId());
        }
        return heads;
    }
}
