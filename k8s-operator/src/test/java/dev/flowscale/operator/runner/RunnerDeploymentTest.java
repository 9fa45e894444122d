package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.SlotResources;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.runner.api.RunnerPaths;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RunnerDeploymentTest {
    private final StreamJob job = StreamJobs.wordCount("ns", "wc");
    private final Map<String, Integer> parallelism = new TreeMap<>(Map.of("split", 2, "count", 3));

    @Test
    void requestsAreOneSlotTimesTheTotalParallelism() {
        SlotResources slot = new SlotResources();
        slot.cpu = "0.5";
        slot.memory = "1Gi";
        ResourceRequirements r = RunnerDeployment.resources(slot, 5);
        assertThat(r.getRequests())
                .containsEntry("cpu", new Quantity("2500m"))
                .containsEntry("memory", new Quantity("5120Mi"));
        assertThat(r.getLimits())
                .containsEntry("memory", new Quantity("5120Mi"))
                .doesNotContainKey("cpu");
    }

    @Test
    void aRestoreAddsTheSavepointToTheRunnerArguments() {
        assertThat(RunnerDeployment.args(job, parallelism, "/flowscale/savepoints/ns/wc/sp-7"))
                .containsSubsequence(
                        "--parallelism",
                        "count=3,split=2",
                        "--restore-from",
                        "/flowscale/savepoints/ns/wc/sp-7");
    }

    @Test
    void aUserJobRunsThroughTheImagesEntrypointWithItsJarsFolderAndClass() {
        job.getSpec().job.builtin = null;
        job.getSpec().job.mainClass = "com.example.MyJob";
        job.getSpec().job.args = List.of("--window", "10m");
        var container =
                RunnerDeployment.desired(job, parallelism, null)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0);
        assertThat(container.getCommand())
                .as("the image's entrypoint and its JVM settings stay")
                .isEmpty();
        assertThat(container.getArgs())
                .startsWith(
                        "run",
                        "--job-jar",
                        "/opt/flowscale/jobs",
                        "--job-class",
                        "com.example.MyJob",
                        "--metrics-port",
                        "9249")
                .endsWith("--window", "10m");
    }

    @Test
    void aFailedRunnersLastLogLinesBecomeItsTerminationMessage() {
        var container =
                RunnerDeployment.desired(job, parallelism, null)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0);
        assertThat(container.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
    }

    @Test
    void theRunnerIsProbedOnTheContractsReadinessPathAndKeepsItsLogTailWhenItFails() {
        var container =
                RunnerDeployment.desired(job, parallelism, null)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0);
        assertThat(container.getReadinessProbe().getHttpGet().getPath())
                .isEqualTo(RunnerPaths.READY);
        assertThat(container.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
    }

    @Test
    void theRunnerCheckpointsPeriodicallyAtTheSpecsInterval() {
        assertThat(RunnerDeployment.args(job, parallelism, null))
                .containsSubsequence("--checkpoint-interval", "30s");
        job.getSpec().savepoints.checkpointInterval = "2m";
        assertThat(RunnerDeployment.args(job, parallelism, null))
                .containsSubsequence("--checkpoint-interval", "2m");
    }

    @Test
    void theRunnerKeepsAsManySnapshotsAsTheSpecRetainsOrThreeByDefault() {
        assertThat(RunnerDeployment.args(job, parallelism, null))
                .containsSubsequence("--retain", "3");
        job.getSpec().savepoints.retain = 7;
        assertThat(RunnerDeployment.args(job, parallelism, null))
                .containsSubsequence("--retain", "7");
    }

    @Test
    void aSuspendedJobHasNoRunnerReplica() {
        job.getSpec().suspend = true;
        Deployment d = RunnerDeployment.desired(job, parallelism, null);
        assertThat(d.getSpec().getReplicas()).isZero();
    }

    @Test
    void withoutAClaimTheSavepointPathIsNotMounted() {
        job.getSpec().savepoints.claimName = null;
        job.getSpec().savepoints.ephemeral = true;
        Deployment d = RunnerDeployment.desired(job, parallelism, null);
        assertThat(d.getSpec().getTemplate().getSpec().getVolumes())
                .extracting(v -> v.getName())
                .containsExactly("config");
    }

    @Test
    void runnerPodsCarryPrometheusScrapeHintsForTheirMetricsPort() {
        Deployment d = RunnerDeployment.desired(job, parallelism, null);
        assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/port", "9249")
                .containsEntry("prometheus.io/path", "/metrics");
    }
}
