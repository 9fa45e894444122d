package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.testing.CountingJob;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user function that never returns cannot wedge a stop or a rescale: once its barrier is late
 * past the operation's timeout the run is cancelled (its tasks interrupted), the job runs again
 * from its last complete snapshot, and the error names the blocked operator with its stack.
 */
class BlockedFunctionTest {
    private static final long RECORDS = 60_000;
    private static final int KEYS = 500;
    private static final Duration BOUND = Duration.ofSeconds(2);

    /** Set by a test: the next record the map takes blocks it until it is interrupted. */
    private static final AtomicBoolean blockNext = new AtomicBoolean();

    private static volatile CountDownLatch blocked = new CountDownLatch(1);

    @BeforeEach
    void reset() {
        blockNext.set(false);
        blocked = new CountDownLatch(1);
    }

    private static JobGraph graph() {
        return CountingJob.graph(
                RateProfile.constant(15_000),
                RECORDS,
                KEYS,
                Map.of(CountingJob.COUNT, 2),
                BlockedFunctionTest::tap);
    }

    private static Long tap(Long value) {
        if (blockNext.compareAndSet(true, false)) {
            blockForever();
        }
        return value;
    }

    private static void blockForever() {
        blocked.countDown();
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while blocked", e);
        }
    }

    private static RunningJob startAndBlock(Path storage) throws InterruptedException {
        JobConfig config =
                JobConfig.defaults()
                        .withBatchSize(64)
                        .withCheckpointing(CheckpointConfig.every(Duration.ofMillis(100), storage));
        RunningJob job = RunningJob.start(graph(), config);
        Await.until(
                Duration.ofSeconds(20),
                "a periodic checkpoint to complete",
                () -> new CheckpointStorage(storage).latestCheckpoint().isPresent());
        blockNext.set(true);
        assertThat(blocked.await(20, TimeUnit.SECONDS)).isTrue();
        return job;
    }

    @Test
    void aRescaleWhoseBarrierIsStuckInAFunctionIsCancelledAndTheJobRestored(@TempDir Path dir)
            throws Exception {
        try (RunningJob job = startAndBlock(dir)) {
            assertTimeoutPreemptively(
                    Duration.ofSeconds(60),
                    () ->
                            assertThatThrownBy(
                                            () -> job.rescale(Map.of(CountingJob.COUNT, 3), BOUND))
                                    .isInstanceOf(SnapshotException.class)
                                    .hasMessageContaining("did not complete within")
                                    .hasMessageContaining("operator '" + CountingJob.MAP + "'")
                                    .hasMessageContaining("blockForever")
                                    .hasMessageContaining("latest complete snapshot"));
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
            assertThat(job.graph().operator(CountingJob.COUNT).parallelism()).isEqualTo(2);
            assertFinalCountsExact(job);
        }
    }

    @Test
    void aStopWhoseBarrierIsStuckInAFunctionIsCancelledAndTheJobRestored(@TempDir Path dir)
            throws Exception {
        try (RunningJob job = startAndBlock(dir)) {
            assertTimeoutPreemptively(
                    Duration.ofSeconds(60),
                    () ->
                            assertThatThrownBy(() -> job.stopWithSavepoint(BOUND))
                                    .isInstanceOf(SnapshotException.class)
                                    .hasMessageContaining("did not complete within")
                                    .hasMessageContaining("operator '" + CountingJob.MAP + "'")
                                    .hasMessageContaining("blockForever"));
            assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
            assertFinalCountsExact(job);
        }
    }

    private static void assertFinalCountsExact(RunningJob job) throws Exception {
        assertThat(CountingJob.finalCounts(job, Duration.ofSeconds(60)))
                .isEqualTo(CountingJob.expected(RECORDS, KEYS));
    }
}
