package dev.flowscale.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import dev.flowscale.autoscaler.testing.MetricsSourceContract;
import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.ChildProcess;
import dev.flowscale.testsupport.EngineJar;
import dev.flowscale.testsupport.Ports;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract against a real job runner process: {@code java -jar flowscale-engine.jar run chain
 * --metrics-port N}, read over its JSON API.
 */
class RunnerHttpMetricsSourceIT extends MetricsSourceContract {
    @TempDir static Path temp;
    private ChildProcess runner;
    private RunnerHttpMetricsSource source;

    static Path engineJar() {
        return EngineJar.path();
    }

    @BeforeAll
    void startRunner() throws Exception {
        int port = Ports.free();
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        runner =
                ChildProcess.start(
                        List.of(
                                java,
                                "-Xmx256m",
                                "-jar",
                                engineJar().toString(),
                                "run",
                                "chain",
                                "--stages",
                                "1",
                                "--stage-cost",
                                "cpu:20us",
                                "--rate",
                                Integer.toString(RATE),
                                "--parallelism",
                                "map1=2",
                                "--metrics-port",
                                Integer.toString(port),
                                "--duration",
                                "120s",
                                "--print-interval",
                                "60s"),
                        Files.createTempFile(temp, "runner", ".log"));
        source =
                new RunnerHttpMetricsSource(
                        URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(2));
        Await.value(
                Duration.ofSeconds(30),
                "the job runner's API",
                () -> {
                    runner.assertAlive();
                    try {
                        return Optional.of(source.topology());
                    } catch (RuntimeException notYet) {
                        return Optional.empty();
                    }
                });
    }

    @AfterAll
    void stopRunner() throws Exception {
        if (runner != null) {
            runner.close();
        }
    }

    @Override
    protected MetricsSource source() {
        return source;
    }

    @Test
    void theRunnerReportsTheTopologyItRunsWithTheJobsKeyGroups() {
        assertThat(source.topology().jobName()).isEqualTo("chain");
        assertThat(source.topology().operator("map1").keyGroups()).isEqualTo(128);
        assertThat(source.describe()).contains("job runner http://127.0.0.1:");
    }
}
