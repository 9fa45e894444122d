package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A function's snapshot is not useful time: its cost is per checkpoint (a two-phase-commit sink's
 * flush), so counted as useful it would make the operator's capacity fall with its input.
 */
class SnapshotTimeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long SNAPSHOT_NANOS = Duration.ofMillis(20).toNanos();

    /** Passes records on; each snapshot works for 20 ms, as a flush waiting for a broker. */
    static final class SlowSnapshots extends ProcessFunction<Long, Long> {
        static volatile int snapshots;

        @Override
        public void processElement(Long value, Collector<Long> out) {
            out.collect(value);
        }

        @Override
        public void snapshotState(long checkpointId) {
            long until = System.nanoTime() + SNAPSHOT_NANOS;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            snapshots++;
        }
    }

    @Test
    void aSnapshotsWorkIsNotCountedAsUsefulTime(@TempDir Path dir) throws Exception {
        JobBuilder job = JobBuilder.named("snapshots");
        job.source("src", Sources.generator(RateProfile.constant(20), seq -> seq))
                .disableChaining()
                .process("flush", SlowSnapshots::new)
                .disableChaining()
                .sink("sink", Sinks.counting());
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(100), dir));
        SlowSnapshots.snapshots = 0;
        try (RunningJob running = job.start(config)) {
            Await.until(TIMEOUT, "20 snapshots", () -> SlowSnapshots.snapshots >= 20);
            InstanceCounts flush = running.metrics().find("flush", 0);

            assertThat(flush.recordsIn()).isPositive();
            assertThat(flush.usefulNanos())
                    .as("useful time after %d snapshots of 20 ms each", SlowSnapshots.snapshots)
                    .isLessThan(5 * SNAPSHOT_NANOS);
        }
    }
}
