package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.CheckpointListener;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded job whose sink commits when a checkpoint completes (two-phase commit) ends with a final
 * checkpoint: the records after its last periodic checkpoint are committed, not aborted.
 */
class FinalCheckpointTest {
    private static final int RECORDS = 3_000;
    static final List<Long> COMMITTED = new CopyOnWriteArrayList<>();
    static final List<Long> ABORTED = new CopyOnWriteArrayList<>();

    /** Prepares the records of each checkpoint at its barrier, commits them on its completion. */
    static final class TwoPhase extends ProcessFunction<Long, Long> implements CheckpointListener {
        private final List<Long> open = new ArrayList<>();
        private final Map<Long, List<Long>> prepared = new ConcurrentSkipListMap<>();

        @Override
        public void processElement(Long value, Collector<Long> out) {
            open.add(value);
            out.collect(value);
        }

        @Override
        public void snapshotState(long checkpointId) {
            prepared.put(checkpointId, List.copyOf(open));
            open.clear();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            prepared.keySet().removeIf(id -> id <= checkpointId && COMMITTED.addAll(prepared(id)));
        }

        private List<Long> prepared(long id) {
            return prepared.get(id);
        }

        @Override
        public void close() {
            ABORTED.addAll(open);
        }
    }

    @Test
    void theTailAfterTheLastPeriodicCheckpointIsCommittedByAFinalCheckpoint(@TempDir Path dir)
            throws Exception {
        JobBuilder job = JobBuilder.named("bounded-2pc");
        job.source("src", Sources.generator(RateProfile.constant(6_000), RECORDS, seq -> seq))
                .parallelism(2)
                .process("tx", TwoPhase::new)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(200), dir));
        try (RunningJob running = job.start(config)) {
            assertThat(running.await(Duration.ofSeconds(30))).as("the job ends").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }

        assertThat(ABORTED).as("nothing left uncommitted at the end").isEmpty();
        assertThat(COMMITTED)
                .as("every record committed exactly once")
                .hasSize(RECORDS)
                .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
    }
}
