package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.testing.CountingJob;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One runner owns a snapshot folder; a second is refused, a fenced one cannot commit, a dead one
 * does not block.
 */
class StorageOwnershipTest {
    private static final JobGraph GRAPH = CountingJob.graph(2_000, 20, Map.of());
    private static final Clock CLOCK =
            Clock.fixed(Instant.parse("2026-12-01T05:00:00Z"), ZoneOffset.UTC);

    private static JobConfig config(Path dir) {
        return JobConfig.defaults()
                .withClock(CLOCK)
                .withCheckpointing(CheckpointConfig.savepointsOnly(dir));
    }

    @Test
    void aSecondRunnerOnTheSameFolderIsRefusedNamingTheOwner(@TempDir Path dir) throws Exception {
        try (RunningJob first = RunningJob.start(GRAPH, config(dir))) {
            assertThatThrownBy(() -> RunningJob.start(GRAPH, config(dir)))
                    .isInstanceOf(SnapshotException.class)
                    .hasMessageContaining(
                            "snapshot storage " + dir + " is in use by another runner")
                    .hasMessageContaining("pid " + ProcessHandle.current().pid())
                    .hasMessageContaining("started 2026-12-01T05:00:00Z")
                    .hasMessageContaining("epoch 1");
            assertThat(first.status()).isEqualTo(RunningJob.Status.RUNNING);
        }
        try (RunningJob second = RunningJob.start(GRAPH, config(dir))) {
            assertThat(Files.readString(dir.resolve(StorageOwner.EPOCH_FILE))).isEqualTo("2");
        }
    }

    @Test
    void aRunnerWhoseEpochWasOvertakenCannotCommitAndFails(@TempDir Path dir) throws Exception {
        try (RunningJob job = RunningJob.start(GRAPH, config(dir))) {
            assertThat(job.awaitRunning(Duration.ofSeconds(10))).isTrue();
            // Another machine took the folder where the lock does not reach: it wrote a higher
            // epoch.
            Files.writeString(dir.resolve(StorageOwner.EPOCH_FILE), "7");
            assertThatThrownBy(() -> job.triggerSavepoint().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(StorageOwner.FencedException.class)
                    .hasMessageContaining("taken over by another runner")
                    .hasMessageContaining("storage epoch 7");
            assertThatThrownBy(() -> job.await(Duration.ofSeconds(10)))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("was fenced");
            assertThat(new CheckpointStorage(dir).completedSnapshots())
                    .as("nothing was committed")
                    .isEmpty();
        }
    }

    @Test
    void aRunnerKilledWithSignal9DoesNotBlockItsSuccessor(@TempDir Path dir) throws Exception {
        Process holder = ChildJvm.start(LockHolder.class, dir.toString());
        try {
            BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            assertThatThrownBy(() -> StorageOwner.acquire(dir, "successor", CLOCK))
                    .hasMessageContaining("pid " + holder.pid())
                    .hasMessageContaining("job 'holder'");
            holder.destroyForcibly();
            assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
            try (StorageOwner successor = StorageOwner.acquire(dir, "successor", CLOCK)) {
                assertThat(successor.epoch()).isEqualTo(2);
                successor.checkFence();
            }
        } finally {
            holder.destroyForcibly();
        }
    }

    /** Holds a folder's ownership until killed; run in a child JVM. */
    public static final class LockHolder {
        public static void main(String[] args) throws InterruptedException {
            StorageOwner.acquire(Path.of(args[0]), "holder", Clock.systemUTC());
            System.out.println("locked");
            System.out.flush();
            new java.util.concurrent.CountDownLatch(1).await();
        }
    }
}
