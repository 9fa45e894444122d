package dev.flowscale.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.realizer.RescaleFailedException;
import dev.flowscale.autoscaler.realizer.RescaleInProgressException;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.autoscaler.testing.Decisions;
import dev.flowscale.autoscaler.testing.HttpRunnerScalingRealizer;
import dev.flowscale.autoscaler.testing.ProcessRunnerLauncher;
import dev.flowscale.autoscaler.testing.RecordingRescaleListener;
import dev.flowscale.autoscaler.testing.RunnerAwait;
import dev.flowscale.autoscaler.testing.Runners;
import dev.flowscale.autoscaler.testing.TestingRunnerLauncher;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.RunnerClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rescales a real job runner process: stop with a savepoint, start a new runner from it. */
class HttpRunnerScalingRealizerIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir Path dir;
    private final RecordingRescaleListener listener = new RecordingRescaleListener();
    private ProcessRunnerLauncher processes;
    private URI first;
    private HttpRunnerScalingRealizer realizer;

    @BeforeEach
    void startRunner() {
        processes = Runners.launcher(dir);
        first = processes.start(Map.of(Runners.COUNT, 1), null);
    }

    @AfterEach
    void killEveryRunner() throws Exception {
        if (realizer != null) {
            realizer.close();
        }
        processes.close();
    }

    private TestingRunnerLauncher realizerWith(int neverReadyStarts) {
        TestingRunnerLauncher launcher = new TestingRunnerLauncher(processes, neverReadyStarts);
        realizer = new HttpRunnerScalingRealizer(first, launcher, TIMEOUT, listener);
        return launcher;
    }

    @Test
    void aDecisionStopsTheOldRunnerWithASavepointAndANewRunnerRunsAtTheNewParallelismFromIt()
            throws Exception {
        TestingRunnerLauncher launcher = realizerWith(0);

        await(realizer.realize(Decisions.scale(Runners.JOB, Runners.COUNT, 1, 2)));

        RescaleReport report = listener.last();
        assertThat(report.succeeded()).as(report.summary()).isTrue();
        Path savepoint = Path.of(report.savepoint().orElseThrow());
        assertThat(savepoint.resolve("_metadata")).isRegularFile();
        assertThat(launcher.starts())
                .singleElement()
                .satisfies(
                        start -> {
                            assertThat(start.restoreFrom()).isEqualTo(savepoint);
                            assertThat(start.parallelism())
                                    .containsEntry(Runners.COUNT, 2)
                                    .containsKeys("sentences", "split", "sink");
                        });
        assertThat(realizer.runner()).isNotEqualTo(first);
        JobView now = job(realizer.runner());
        assertThat(now.status()).isEqualTo("RUNNING");
        assertThat(now.parallelism()).containsEntry(Runners.COUNT, 2);
        Process old = processes.runners().get(first);
        assertThat(old.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .as("the old runner exits")
                .isTrue();
        assertThat(old.exitValue()).isZero();
    }

    @Test
    void aDecisionRealizedTwiceRescalesOnce() throws Exception {
        TestingRunnerLauncher launcher = realizerWith(0);
        await(realizer.realize(Decisions.scale(Runners.JOB, Runners.COUNT, 1, 2)));

        await(realizer.realize(Decisions.scale(Runners.JOB, Runners.COUNT, 1, 2)));

        assertThat(launcher.starts()).hasSize(1);
        assertThat(listener.reports()).hasSize(1);
        assertThat(RunnerAwait.runs(job(realizer.runner()), Map.of(Runners.COUNT, 2))).isTrue();
    }

    @Test
    void aRunnerThatNeverBecomesReadyIsReplacedByOneAtThePreviousParallelismFromTheSameSavepoint()
            throws Exception {
        TestingRunnerLauncher launcher = realizerWith(1);

        CompletableFuture<Void> done =
                realizer.realize(Decisions.scale(Runners.JOB, Runners.COUNT, 1, 3))
                        .toCompletableFuture();

        assertThatThrownBy(() -> done.get(2 * TIMEOUT.toSeconds() + 60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RescaleFailedException.class)
                .hasMessageContaining("did not come up")
                .hasMessageContaining("rolled back");
        assertThat(launcher.starts()).hasSize(2);
        TestingRunnerLauncher.Start attempt = launcher.starts().get(0);
        TestingRunnerLauncher.Start rollback = launcher.starts().get(1);
        assertThat(attempt.parallelism()).containsEntry(Runners.COUNT, 3);
        assertThat(rollback.parallelism()).containsEntry(Runners.COUNT, 1);
        assertThat(rollback.restoreFrom()).isEqualTo(attempt.restoreFrom()).isNotNull();
        assertThat(rollback.restoreFrom().resolve("_metadata"))
                .as("the savepoint is kept")
                .isRegularFile();
        assertThat(launcher.stops()).containsExactly(attempt.runner());
        assertThat(realizer.runner()).isEqualTo(rollback.runner());
        assertThat(RunnerAwait.runs(job(realizer.runner()), Map.of(Runners.COUNT, 1))).isTrue();
        RescaleReport report = listener.last();
        assertThat(report.succeeded()).isFalse();
        assertThat(report.savepoint()).contains(attempt.restoreFrom().toString());
        assertThat(report.failure())
                .get()
                .asString()
                .contains("wordcount", "rolled back", "count=1");
    }

    @Test
    void aSecondDecisionWhileOneIsInFlightIsRefusedNotQueued() throws Exception {
        TestingRunnerLauncher launcher = realizerWith(0);

        CompletableFuture<Void> firstDecision =
                realizer.realize(Decisions.scale(Runners.JOB, Runners.COUNT, 1, 2))
                        .toCompletableFuture();
        CompletableFuture<Void> second =
                realizer.realize(Decisions.scale(Runners.JOB, Runners.COUNT, 1, 3))
                        .toCompletableFuture();

        assertThatThrownBy(() -> second.get(1, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RescaleInProgressException.class)
                .hasMessageContaining("rescale already in progress");
        await(firstDecision);
        assertThat(launcher.starts()).hasSize(1);
        assertThat(job(realizer.runner()).parallelism()).containsEntry(Runners.COUNT, 2);
        assertThat(listener.reports()).hasSize(1);
    }

    @Test
    void aDecisionNamingAnUnknownOperatorLeavesTheRunnerAlone() throws Exception {
        TestingRunnerLauncher launcher = realizerWith(0);

        CompletableFuture<Void> done =
                realizer.realize(Decisions.scale(Runners.JOB, "no-such-operator", 1, 2))
                        .toCompletableFuture();

        assertThatThrownBy(() -> done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .hasCauseInstanceOf(RescaleFailedException.class)
                .hasMessageContaining("no-such-operator")
                .hasMessageContaining("nothing was changed");
        assertThat(launcher.starts()).isEmpty();
        assertThat(RunnerAwait.runs(job(first), Map.of(Runners.COUNT, 1))).isTrue();
    }

    private static void await(java.util.concurrent.CompletionStage<Void> stage) throws Exception {
        stage.toCompletableFuture().get(2 * TIMEOUT.toSeconds() + 60, TimeUnit.SECONDS);
    }

    private static JobView job(URI runner) {
        return RunnerClient.connect(runner, TIMEOUT, null).job();
    }
}
