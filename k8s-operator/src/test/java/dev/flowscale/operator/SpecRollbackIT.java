package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spec change whose new runner never becomes ready is rolled back to the whole runner template
 * that ran before (args, image, resources), from the change's savepoint; the rolled-back generation
 * is recorded and not applied again until the spec changes. The runner is a real engine process
 * ({@link LocalKubelet}) that never starts with the new spec's arguments.
 */
class SpecRollbackIT {
    static final String NS = RunnerJobHarness.NS;
    static final String NEW_IMAGE = "registry.example/flowscale-runner:0.2.0";

    /** The job's own rescale timeout; the operator's default never passes here. */
    static final Duration RESCALE_TIMEOUT = Duration.ofMinutes(30);

    @AutoClose final RunnerClusterFixture cluster = new RunnerClusterFixture();
    final JumpingClock clock = new JumpingClock();
    final KubernetesClient client = cluster.client;

    @TempDir Path dir;

    @Test
    void aSpecChangeWhoseRunnerNeverRunsIsRolledBackToTheTemplateThatRanBefore()
            throws IOException {
        start(args -> !args.contains("1600"));
        String deployed =
                awaitJob(j -> j.getStatus().phase == JobPhase.Running).getStatus().deployedSpec;
        assertThat(deployed).contains("\"--rate\",\"1500\"");
        // As an earlier release left the status: the runner's spec is taken from its Deployment.
        clearDeployedSpec();
        awaitJob(j -> deployed.equals(j.getStatus().deployedSpec));
        Container before = container();

        RunnerJobHarness.editSpec(
                client,
                j -> {
                    j.getSpec().image = NEW_IMAGE;
                    j.getSpec().job.args = List.of("--rate", "1600", "--cost", "split=sleep:2ms");
                    j.getSpec().resources.cpu = "300m";
                });
        // The change times out once its runner is known never to start, however long a loaded
        // machine took to get there.
        awaitJob(
                j ->
                        j.getStatus().pending != null
                                && j.getStatus().pending.savepoint != null
                                && RunnerJobHarness.args(client).contains("1600"));
        clock.jump(RESCALE_TIMEOUT.plusSeconds(1));

        StreamJob back =
                awaitJob(
                        j ->
                                j.getStatus().rolledBack != null
                                        && j.getStatus().pending == null
                                        && j.getStatus().phase == JobPhase.Running);
        Container after = container();
        assertThat(after.getImage()).isEqualTo(before.getImage());
        assertThat(after.getResources()).isEqualTo(before.getResources());
        assertThat(after.getArgs())
                .containsSubsequence("--rate", "1500")
                .doesNotContain("1600")
                .containsSubsequence("--restore-from", back.getStatus().lastSavepoint);
        assertThat(cluster.kubelet.started())
                .as("the new spec's runner never started; the old spec's did again")
                .isEqualTo(2);
        assertThat(cluster.runnerState().status()).isEqualTo("RUNNING");
        assertThat(back.getStatus().rolledBack.generation).isEqualTo(2L);
        assertThat(back.getStatus().rolledBack.message)
                .contains("was not ready within " + RESCALE_TIMEOUT);
        assertThat(back.getStatus().observedGeneration).isEqualTo(1L);
        assertThat(RunnerJobHarness.events(client, JobEvents.SPEC_ROLLED_BACK))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("generation 2 (spec)"));

        RunnerJobHarness.poke(client, "after-rollback");
        RunnerJobHarness.holdFor(
                Duration.ofSeconds(3),
                () -> {
                    StreamJob j = cluster.job();
                    return j.getStatus().pending == null
                            && !RunnerJobHarness.args(client).contains("1600");
                },
                "the rolled-back generation is not applied again");

        RunnerJobHarness.editSpec(
                client,
                j -> {
                    j.getSpec().job.args = List.of("--rate", "1400", "--cost", "split=sleep:2ms");
                });
        StreamJob next =
                awaitJob(
                        j ->
                                Long.valueOf(3).equals(j.getStatus().observedGeneration)
                                        && j.getStatus().pending == null
                                        && j.getStatus().phase == JobPhase.Running);
        assertThat(container().getImage()).isEqualTo(NEW_IMAGE);
        assertThat(container().getArgs()).containsSubsequence("--rate", "1400");
        assertThat(next.getStatus().lastRescale).isNull();
        assertThat(next.getStatus().rolledBack.generation).isEqualTo(2L);
    }

    private void start(Predicate<List<String>> accept) throws IOException {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.OFF, dir.resolve("savepoints"));
        job.getSpec().timeouts.rescale = RESCALE_TIMEOUT.toMinutes() + "m";
        cluster.start(dir, accept, "16", "16", RunnerJobHarness.NO_RESCALE_TIMEOUT, clock, job);
    }

    /** Removes status.deployedSpec, written against the version read (again after a 409). */
    private void clearDeployedSpec() {
        Eventually.await(
                "status.deployedSpec removed",
                () -> {
                    StreamJob job = cluster.job();
                    job.getStatus().deployedSpec = null;
                    try {
                        client.resource(job).updateStatus();
                        return true;
                    } catch (KubernetesClientException conflict) {
                        return false;
                    }
                },
                done -> done);
    }

    private Container container() {
        return RunnerJobHarness.deployment(client)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
    }

    private StreamJob awaitJob(Predicate<StreamJob> check) {
        return RunnerJobHarness.awaitJob(client, check);
    }
}
