package dev.flowscale.autoscaler.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.realizer.RealizeException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunnerCommandTest {
    private final RunnerCommand command =
            new RunnerCommand(
                    Path.of("/jdk/bin/java"),
                    List.of("-Xmx256m"),
                    Path.of("/engine.jar"),
                    "wordcount",
                    List.of("--rate", "300"),
                    Path.of("/data/wc"));

    @Test
    void aRestoringRunnerGetsItsParallelismRestorePathSavepointDirAndPort() {
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        parallelism.put("split", 1);
        parallelism.put("count", 2);

        assertThat(command.command(parallelism, Path.of("/data/wc/savepoints/sp-1"), 9000))
                .containsExactly(
                        "/jdk/bin/java",
                        "-Xmx256m",
                        "-jar",
                        "/engine.jar",
                        "run",
                        "wordcount",
                        "--rate",
                        "300",
                        "--parallelism",
                        "split=1,count=2",
                        "--restore-from",
                        "/data/wc/savepoints/sp-1",
                        "--savepoint-dir",
                        "/data/wc",
                        "--metrics-port",
                        "9000");
    }

    @Test
    void aFreshRunnerHasNoRestorePath() {
        assertThat(command.command(Map.of("count", 2), null, 9000))
                .doesNotContain("--restore-from")
                .contains("--parallelism", "count=2");
    }

    @Test
    void jobArgumentsThatTheLauncherSetsAreRefusedNamingTheArgument() {
        assertThatThrownBy(
                        () ->
                                RunnerCommand.of(
                                        Path.of("/engine.jar"),
                                        "chain",
                                        List.of("--metrics-port=9249"),
                                        Path.of("/data")))
                .isInstanceOf(RealizeException.class)
                .hasMessageContaining("chain")
                .hasMessageContaining("--metrics-port=9249");
    }
}
