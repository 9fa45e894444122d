package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.testsupport.Await;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A StreamJob whose input is bounded (wordcount's {@code --limit}), on the mock API server with a
 * real runner process played by {@link LocalKubelet}: its runner finishes the job and lingers, not
 * ready, answering FINISHED. The operator shows the job Finished and leaves the runner alone: no
 * restart from one of the run's checkpoints (which would feed the sink the input after that
 * checkpoint a second time), no StrandedRunnerRestarted Event, no autoscaler decisions; a changed
 * spec with new storage runs the job again from its start.
 */
class BoundedJobIT {
    private static final Duration HOLD = Duration.ofSeconds(10);
    final RunnerClusterFixture cluster = new RunnerClusterFixture();

    @TempDir Path dir;

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aJobWhoseInputEndsIsFinishedAndItsRunnerIsNotRestartedFromACheckpoint() throws Exception {
        cluster.startOnSystemClock(dir, "4", boundedJob(3000));

        StreamJob finished =
                RunnerJobHarness.awaitJob(
                        cluster.client, j -> j.getStatus().phase == JobPhase.Finished);

        Condition ready = Conditions.find(finished.getStatus(), Conditions.READY).orElseThrow();
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo(JobEvents.JOB_FINISHED);
        assertThat(ready.getMessage())
                .contains("its input ended")
                .contains("to run it again, change the spec");
        assertThat(finished.getStatus().endedAs).isEqualTo("FINISHED");
        assertThat(cluster.runnerState().status()).isEqualTo("FINISHED");
        assertThat(Files.list(storage().resolve("checkpoints")).toList())
                .as("checkpoints the finished run took: a restart could restore one")
                .isNotEmpty();
        String decided = decisionTime(finished);
        Await.holds(
                HOLD,
                "one runner started, the job Finished and no new autoscaler decision",
                () ->
                        cluster.kubelet.started() == 1
                                && cluster.job().getStatus().phase == JobPhase.Finished
                                && Objects.equals(decisionTime(cluster.job()), decided));

        assertThat(RunnerJobHarness.events(cluster.client, JobEvents.STRANDED_RUNNER)).isEmpty();
        assertThat(RunnerJobHarness.events(cluster.client, JobEvents.JOB_FINISHED))
                .hasSize(1)
                .allSatisfy(e -> assertThat(e.getType()).isEqualTo("Normal"));
        assertThat(RunnerJobHarness.args(cluster.client)).doesNotContain("--restore-from");
        assertThat(cluster.kubelet.restarts()).isZero();
    }

    @Test
    void aChangedSpecWithNewStorageRunsAFinishedJobAgainFromItsStart() throws Exception {
        cluster.startOnSystemClock(dir, "4", boundedJob(1500));
        RunnerJobHarness.awaitJob(cluster.client, j -> j.getStatus().phase == JobPhase.Finished);

        Path again = dir.resolve("again");
        RunnerJobHarness.editSpec(
                cluster.client,
                j -> {
                    j.getSpec().job.args = args(3000);
                    j.getSpec().savepoints.path = again.toString();
                });

        StreamJob rerun =
                RunnerJobHarness.awaitJob(
                        cluster.client,
                        j ->
                                j.getStatus().phase == JobPhase.Finished
                                        && j.getMetadata()
                                                .getGeneration()
                                                .equals(j.getStatus().endedGeneration)
                                        && j.getMetadata().getGeneration() > 1);
        assertThat(cluster.kubelet.started())
                .as("runners: the first run and the run again")
                .isEqualTo(2);
        assertThat(Files.readAllLines(dir.resolve("runner-2.log")))
                .as("the second runner's log")
                .anyMatch(
                        l ->
                                l.startsWith("restore: no complete snapshot in ")
                                        && l.endsWith("starting fresh"));
        assertThat(rerun.getStatus().lastSavepoint).isNull();
        assertThat(RunnerJobHarness.events(cluster.client, JobEvents.JOB_FINISHED)).hasSize(2);
        assertThat(RunnerJobHarness.events(cluster.client, JobEvents.STRANDED_RUNNER)).isEmpty();
    }

    private static String decisionTime(StreamJob job) {
        return job.getStatus().lastDecision == null ? null : job.getStatus().lastDecision.time;
    }

    /**
     * Built-in wordcount of {@code sentences} sentences at 1,500 a second, checkpointing every
     * second.
     */
    private StreamJob boundedJob(int sentences) {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        RunnerJobHarness.NS, "wc", AutoscalerMode.RECOMMEND, dir.resolve("claim"));
        job.getSpec().job.args = args(sentences);
        job.getSpec().parallelism.clear();
        job.getSpec().parallelism.putAll(Map.of("split", 1, "count", 2));
        job.getSpec().savepoints.checkpointInterval = "1s";
        return job;
    }

    private static List<String> args(int sentences) {
        return List.of("--rate", "1500", "--limit", String.valueOf(sentences));
    }

    /** The job's storage: the runner's --savepoint-dir, the claim path plus namespace and name. */
    private Path storage() {
        return dir.resolve("claim").resolve(RunnerJobHarness.NS).resolve("wc");
    }
}
