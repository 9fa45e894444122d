package dev.flowscale.bench.sidebyside;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An autoscaler run as its own process against one Flink cluster's REST endpoint. */
enum Contestant {
    /** flowscale's loop, exactly as {@code ./flowscale attach --flink} runs it. */
    FLOWSCALE("flowscale"),
    /**
     * flink-autoscaler-standalone with the fast windows of the operator's documentation example.
     */
    FLINK_FAST("flink-autoscaler-standalone, fast windows"),
    /**
     * flink-autoscaler-standalone with its defaults (metrics window 15 min, stabilization 5 min).
     */
    FLINK_DEFAULTS("flink-autoscaler-standalone, defaults");

    final String label;

    Contestant(String label) {
        this.label = label;
    }

    /** The command that autoscales {@code jobId} on {@code rest} for {@code duration}. */
    List<String> command(
            Path java, SideBySide.Options options, URI rest, String jobId, Duration duration) {
        List<String> cmd = new ArrayList<>(List.of(java.toString()));
        if (this == FLOWSCALE) {
            cmd.addAll(
                    List.of(
                            "-jar",
                            options.flowscaleJar().toString(),
                            "attach",
                            "--flink",
                            rest.toString(),
                            "--job",
                            jobId,
                            "--duration",
                            duration.toSeconds() + "s",
                            "--print-interval",
                            "10s"));
            return cmd;
        }
        cmd.addAll(
                List.of(
                        "-cp",
                        options.flinkAutoscalerClasspath(),
                        "org.apache.flink.autoscaler.standalone.StandaloneAutoscalerEntrypoint",
                        "--autoscaler.standalone.fetcher.flink-cluster.host",
                        rest.getHost(),
                        "--autoscaler.standalone.fetcher.flink-cluster.port",
                        Integer.toString(rest.getPort()),
                        "--autoscaler.standalone.control-loop.interval",
                        "10s",
                        "--job.autoscaler.enabled",
                        "true"));
        if (this == FLINK_FAST) {
            cmd.addAll(
                    List.of(
                            "--job.autoscaler.stabilization.interval",
                            "1m",
                            "--job.autoscaler.metrics.window",
                            "5m",
                            "--job.autoscaler.catch-up.duration",
                            "5m",
                            "--job.autoscaler.scale-down.interval",
                            "5m"));
        }
        return cmd;
    }
}
