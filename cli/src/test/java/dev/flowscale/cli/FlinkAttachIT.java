package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.testsupport.Await;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flowscale attach --flink} against a real Flink 2.3 MiniCluster (adaptive scheduler, REST
 * on loopback) running real word counts: an address where nothing answers is refused with the fix;
 * with two jobs running and no {@code --job} it lists them; an unknown job is named; attached to
 * one, the word count that starts at 1/1/1 under a load it cannot sustain is rescaled in place,
 * with the live view's decision and rescale lines and the HTML report. Run with {@code -Pflink} (a
 * minute or two on this machine).
 */
@Tag("flink")
class FlinkAttachIT {
    private static LocalFlinkCluster flink;
    private static FlinkRestClient rest;
    private final CommandRun command = new CommandRun();

    @BeforeAll
    static void startCluster() throws Exception {
        flink = LocalFlinkCluster.start(8, true);
        rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        flink.close();
    }

    @Test
    void listsTheRunningJobsWhenSeveralRunAndNoneWasNamedAndNamesAnUnknownOne() throws Exception {
        FlinkJobRef first = submit("first", 20);
        FlinkJobRef second = submit("second", 20);
        try {
            assertThat(command.run("attach", "--flink", flink.rest().toString())).isEqualTo(2);
            assertThat(command.errors())
                    .contains("2 running Flink jobs at")
                    .contains("'word-count-first' (" + first.jobId() + ")")
                    .contains("'word-count-second' (" + second.jobId() + ")")
                    .contains("pass --job with a job id or a unique name");
            command.reset();
            assertThat(
                            command.run(
                                    "attach",
                                    "--flink",
                                    flink.rest().toString(),
                                    "--job",
                                    "no-such"))
                    .isEqualTo(2);
            assertThat(command.errors()).contains("no running Flink jobs named 'no-such'");
        } finally {
            cancel(first);
            cancel(second);
        }
    }

    @Test
    void scalesTheAttachedJobInPlaceWithTheLiveViewAndTheReport(@TempDir Path dir)
            throws Exception {
        FlinkJobRef job = submit("attached", 200);
        Path report = dir.resolve("report.html");
        try {
            int exit =
                    command.run(
                            "attach",
                            "--flink",
                            flink.rest().toString(),
                            "--job",
                            "word-count-attached",
                            "--duration",
                            "75s",
                            "--policy-interval",
                            "10s",
                            "--warm-up",
                            "3s",
                            "--print-interval",
                            "5s",
                            "--report",
                            report.toString());
            String shown = command.output();
            assertThat(exit).as(shown + command.errors()).isZero();
            assertThat(shown)
                    .contains("scaling Flink job 'word-count-attached'")
                    .contains("DECISION SCALE")
                    .contains("RESCALED job 'word-count-attached' rescaled")
                    .contains("Summary after");
            assertThat(job.read().parallelism().get("Split")).isGreaterThan(1);
            assertThat(Files.readString(report)).contains("word-count-attached").contains("<svg");
        } finally {
            cancel(job);
        }
    }

    @Test
    void attachSaysSoWhenNothingAnswersAtTheFlinkUrl() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort();
        }
        assertThat(command.run("attach", "--flink", "http://127.0.0.1:" + port)).isEqualTo(2);
        assertThat(command.errors())
                .contains("error: option --flink http://127.0.0.1:" + port)
                .contains("check that Flink's REST endpoint is up");
    }

    private static FlinkJobRef submit(String tag, double rate) throws Exception {
        FlinkJobRef job =
                new FlinkJobRef(
                        rest,
                        flink.submit(
                                new FlinkWordCount.Settings(
                                        tag,
                                        System.currentTimeMillis(),
                                        rate,
                                        1_000_000,
                                        6000,
                                        2200,
                                        16)));
        AttachCommand.awaitRunning(job, Duration.ofSeconds(90));
        return job;
    }

    private static void cancel(FlinkJobRef job) {
        rest.patch("jobs/" + job.jobId() + "?mode=cancel");
        Await.until(
                Duration.ofSeconds(60),
                "the job to end",
                () -> !"RUNNING".equals(job.read().state()));
    }
}
