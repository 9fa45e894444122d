package dev.flowscale.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.realizer.RealizeException;
import dev.flowscale.autoscaler.testing.ProcessRunnerLauncher;
import dev.flowscale.autoscaler.testing.RunnerCommand;
import dev.flowscale.autoscaler.testing.Runners;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessRunnerLauncherIT {
    @TempDir Path dir;

    @Test
    void aRunnerThatExitsAtOnceFailsFastWithItsOutput() {
        RunnerCommand command =
                RunnerCommand.of(
                        Runners.engineJar(), "no-such-job", List.of(), dir.resolve("data"));
        try (ProcessRunnerLauncher launcher =
                new ProcessRunnerLauncher(command, dir.resolve("logs"), Duration.ofSeconds(60))) {
            long started = System.nanoTime();

            assertThatThrownBy(() -> launcher.start(Map.of(), null))
                    .isInstanceOf(RealizeException.class)
                    .hasMessageContaining("no-such-job")
                    .hasMessageContaining("exited before it reported RUNNING")
                    .hasMessageContaining("is not a built-in job");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isLessThan(Duration.ofSeconds(30));
            assertThat(launcher.runners()).isEmpty();
        }
    }
}
