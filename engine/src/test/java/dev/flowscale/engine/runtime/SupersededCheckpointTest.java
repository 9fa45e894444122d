package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint that a savepoint supersedes (a rescale's, while a periodic one is under way) is no
 * failure: it is neither counted nor logged as one, so it wears no tolerance down.
 */
class SupersededCheckpointTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final CountDownLatch BLOCKED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @Test
    void whenASavepointSupersedesACheckpoint_thenNoFailureIsCounted(@TempDir Path dir)
            throws Exception {
        JobBuilder job = JobBuilder.named("superseded");
        job.source("src", Sources.replayable(null, 1_000_000, seq -> seq))
                .map("gate", SupersededCheckpointTest::holdTheFirstRecord)
                .sink("sink", Sinks.counting());
        JobConfig config =
                JobConfig.defaults().withCheckpointing(CheckpointConfig.savepointsOnly(dir));
        try (RunningJob running = job.start(config)) {
            assertThat(BLOCKED.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Path> checkpoint = running.triggerCheckpoint();
            CompletableFuture<Path> savepoint = running.triggerSavepoint();
            RELEASE.countDown();

            Await.until(TIMEOUT, "the checkpoint ended", checkpoint::isDone);
            assertThat(savepoint.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isDirectory();
            assertThat(causeOf(checkpoint)).isInstanceOf(CheckpointCoordinator.Abandoned.class);
            assertThat(running.checkpointStatus().failed()).isZero();
            assertThat(running.checkpointStatus().completed()).isEqualTo(1);
        }
    }

    /** Holds the gate's first record (and with it every barrier) until the test releases it. */
    private static long holdTheFirstRecord(long value) throws InterruptedException {
        if (BLOCKED.getCount() > 0) {
            BLOCKED.countDown();
            RELEASE.await();
        }
        return value;
    }

    private static Throwable causeOf(CompletableFuture<Path> failed) throws InterruptedException {
        try {
            failed.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
