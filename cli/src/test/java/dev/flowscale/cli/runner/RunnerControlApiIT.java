package dev.flowscale.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.testing.ProcessRunnerLauncher;
import dev.flowscale.autoscaler.testing.Runners;
import dev.flowscale.runner.api.RunnerClient;
import dev.flowscale.runner.api.SavepointView;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's control API on a real runner process, through the runner API's client. */
class RunnerControlApiIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    @TempDir Path dir;
    private ProcessRunnerLauncher processes;
    private URI runner;
    private RunnerClient client;

    @BeforeEach
    void startRunner() {
        processes = Runners.launcher(dir);
        runner = processes.start(Map.of(Runners.COUNT, 2), null);
        client = RunnerClient.connect(runner, Duration.ofSeconds(5), null);
    }

    @AfterEach
    void killTheRunner() {
        processes.close();
    }

    @Test
    void aSavepointRequestAnswersADirectoryWithAManifestAndTheRunnerKeepsRunning() {
        Path savepoint = Path.of(client.savepoint(TIMEOUT).savepoint());

        assertThat(savepoint).startsWith(dir.resolve("snapshots"));
        assertThat(savepoint.resolve("_metadata")).isRegularFile();
        assertThat(processes.runners().get(runner).isAlive()).isTrue();
        assertThat(client.job().running()).isTrue();
        assertThat(client.readiness().ready()).isTrue();
    }

    @Test
    void aStopWithSavepointRequestAnswersTheSavepointAndTheRunnerExitsWithZero() throws Exception {
        SavepointView stopped = client.stopWithSavepoint(TIMEOUT);

        assertThat(Path.of(stopped.savepoint()).resolve("_metadata")).isRegularFile();
        Process process = processes.runners().get(runner);
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the runner exits").isTrue();
        assertThat(process.exitValue()).isZero();
    }
}
