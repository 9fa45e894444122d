package dev.flowscale.charts;

import dev.flowscale.reconfig.ProcessRunnerLauncher;
import dev.flowscale.reconfig.RunnerCommand;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A second job runner beside the autoscaled word count, for the panels that need event time (the
 * word count has none): the built-in sensor alert job at 20 readings per second, with latency markers, not
 * autoscaled (a second autoscaled runner would double the test's cost for nothing the first does
 * not prove).
 */
final class EventTimeRunner implements AutoCloseable {
    static final String JOB = "sensor-alerts";
    private static final List<String> JOB_ARGS =
            List.of("--rate", "20", "--print-interval", "60s", "--latency-interval", "500ms");

    private final ProcessRunnerLauncher processes;
    private final URI endpoint;

    EventTimeRunner(Path engineJar, Path dir) {
        processes =
                new ProcessRunnerLauncher(
                        RunnerCommand.of(engineJar, JOB, JOB_ARGS, dir.resolve("snapshots-" + JOB))
                                .withJvmOptions(
                                        List.of(
                                                "-Xmx128m",
                                                "-XX:+UseSerialGC",
                                                "-XX:TieredStopAtLevel=1")),
                        dir.resolve("logs"),
                        Duration.ofSeconds(60));
        endpoint = processes.start(Map.of(), null);
    }

    /** The runner's metrics and API endpoint. */
    URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        processes.close();
    }
}
