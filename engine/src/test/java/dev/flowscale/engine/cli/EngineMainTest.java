package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return EngineMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void runsWordCountForADurationAndPrintsEveryOperatorsRates() {
        int code = run("run", "wordcount", "--duration", "1500ms", "--print-interval", "500ms", "--rate", "20000",
                "--parallelism", "count=2");
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(text).contains("true proc/s").contains("sentences").contains("split").contains("count")
                .contains("Summary");
        assertThat(text).containsPattern("count\\s+2\\s");
    }

    @Test
    void runsTheCostChain() {
        int code = run("run", "chain", "--duration", "1s", "--stages", "2", "--stage-cost", "cpu:5us",
                "--rate", "1000");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("map1").contains("map2");
    }

    @Test
    void badOptionsGiveAOneLineErrorAndTheUsage() {
        assertThat(run("run", "wordcount", "--parallelism", "nosuchop=2")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: job 'wordcount': no operator with id 'nosuchop'")
                .contains("usage:");
        err.reset();
        assertThat(run("run", "wordcount", "--bogus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: unknown option --bogus");
        err.reset();
        assertThat(run("run", "nosuchjob")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown job 'nosuchjob'");
        err.reset();
        assertThat(run("run", "wordcount", "--rate", "warp:9")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: ").contains("warp");
        err.reset();
        assertThat(run("run", "wordcount", "--duration", "soon")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--duration 'soon' is not a duration");
    }

    @Test
    void withAfterStopLingerTheRunnerKeepsServingAfterStopWithSavepointAndIsNotReady(@TempDir Path dir)
            throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        AtomicInteger code = new AtomicInteger(-1);
        Thread runner = new Thread(() -> code.set(run("run", "wordcount", "--rate", "2000", "--metrics-port",
                "" + port, "--savepoint-dir", dir.toString(), "--job-name", "team-a/orders", "--after-stop", "linger",
                "--print-interval", "10s")));
        runner.start();
        HttpClient http = HttpClient.newHttpClient();
        URI base = URI.create("http://127.0.0.1:" + port);
        awaitStatus(http, base.resolve("/api/v1/ready"), 200);
        assertThat(send(http, HttpRequest.newBuilder(base.resolve("/metrics")).build()).body())
                .contains("job=\"team-a/orders\"");

        HttpResponse<String> stop = send(http, HttpRequest.newBuilder(base.resolve("/api/v1/stop-with-savepoint"))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);
        awaitStatus(http, base.resolve("/api/v1/ready"), 503);
        Thread.sleep(500);
        assertThat(runner.isAlive()).as("the runner lingers after the stop").isTrue();
        assertThat(send(http, HttpRequest.newBuilder(base.resolve("/api/v1/job")).build()).body())
                .contains("\"status\":\"STOPPED\"").contains("team-a/orders");

        runner.interrupt();
        runner.join(10_000);
        assertThat(code.get()).isEqualTo(130);
    }

    @Test
    void anUnknownAfterStopModeIsAUsageError() {
        assertThat(run("run", "wordcount", "--after-stop", "sleep")).isEqualTo(2);
        assertThat(err.toString()).contains("--after-stop").contains("exit or linger");
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitStatus(HttpClient http, URI uri, int status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int last = -1;
        while (System.nanoTime() < deadline) {
            try {
                last = send(http, HttpRequest.newBuilder(uri).build()).statusCode();
                if (last == status) {
                    return;
                }
            } catch (java.io.IOException notYetListening) {
                last = -1;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(uri + " answered " + last + ", not " + status + ", within 20 s");
    }

    @Test
    void checkAcceptsWhatARunAcceptsAndRejectsWhatItRejectsWithoutStartingAnything() {
        EngineMain.check("wordcount", List.of("--rate", "1000", "--cost", "split=sleep:2ms", "--checkpoint-interval",
                "30s"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EngineMain.check("wordcount", List.of("--rate",
                "fast"))).hasMessageContaining("fast");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EngineMain.check("wordcount", List.of("--cost",
                "nosuchop=cpu:1us"))).hasMessageContaining("nosuchop");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EngineMain.check("wordcount", List.of("--bogus",
                "1"))).hasMessageContaining("--bogus");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EngineMain.check("nosuchjob", List.of()))
                .hasMessageContaining("nosuchjob");
    }
}
