package dev.flowscale.autoscaler.testing;

import dev.flowscale.testsupport.EngineJar;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The real job runner the *IT tests start: the engine's word count at a low rate. */
public final class Runners {
    public static final String JOB = "wordcount";
    public static final String COUNT = "count";
    public static final Duration READY = Duration.ofSeconds(60);

    private Runners() {}

    public static Path engineJar() {
        return EngineJar.path();
    }

    /** Word count at 300 sentences/s with a small vocabulary; rates printed once a minute. */
    public static ProcessRunnerLauncher launcher(Path dir) {
        RunnerCommand command =
                RunnerCommand.of(
                                engineJar(),
                                JOB,
                                List.of(
                                        "--rate",
                                        "300",
                                        "--vocabulary",
                                        "500",
                                        "--print-interval",
                                        "60s"),
                                dir.resolve("snapshots"))
                        .withJvmOptions(
                                List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        return new ProcessRunnerLauncher(command, dir.resolve("logs"), READY);
    }
}
