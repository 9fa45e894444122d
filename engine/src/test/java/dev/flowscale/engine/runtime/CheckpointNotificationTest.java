package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.CheckpointListener;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two hooks of a two-phase-commit function: snapshotState at the barrier, then completion. */
class CheckpointNotificationTest {
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    /** Records the hooks it sees, per instance. */
    static final class Recording extends ProcessFunction<Long, Long> implements CheckpointListener {
        private int instance;

        @Override
        public void open(dev.flowscale.engine.api.OperatorRuntimeContext context) {
            instance = context.instanceIndex();
        }

        @Override
        public void processElement(Long value, Collector<Long> out) {
            out.collect(value);
        }

        @Override
        public void snapshotState(long checkpointId) {
            EVENTS.add("snapshot " + checkpointId + " @" + instance);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            EVENTS.add("complete " + checkpointId + " @" + instance);
        }
    }

    @Test
    void everyInstanceSnapshotsAtTheBarrierAndHearsOfTheCompletedCheckpoint(@TempDir Path dir)
            throws Exception {
        JobBuilder job = JobBuilder.named("notified");
        job.source("src", Sources.replayable(null, 1_000, seq -> seq))
                .parallelism(2)
                .process("tx", Recording::new)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        JobConfig config =
                JobConfig.defaults().withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        try (RunningJob running = job.start(config)) {
            Path snapshot = running.triggerCheckpoint().get(20, TimeUnit.SECONDS);
            long id = dev.flowscale.engine.checkpoint.CheckpointStorage.idOf(snapshot);
            Await.until(
                    Duration.ofSeconds(20),
                    "both completions",
                    () ->
                            EVENTS.containsAll(
                                    List.of("complete " + id + " @0", "complete " + id + " @1")));
            assertThat(EVENTS.indexOf("snapshot " + id + " @0"))
                    .isNotNegative()
                    .isLessThan(EVENTS.indexOf("complete " + id + " @0"));
            assertThat(EVENTS.indexOf("snapshot " + id + " @1"))
                    .isNotNegative()
                    .isLessThan(EVENTS.indexOf("complete " + id + " @1"));
        }
    }
}
