package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.flowscale.testsupport.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EngineMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return EngineMain.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void runsWordCountForADurationAndPrintsEveryOperatorsRates() {
        int code =
                run(
                        "run",
                        "wordcount",
                        "--duration",
                        "1500ms",
                        "--print-interval",
                        "500ms",
                        "--rate",
                        "20000",
                        "--parallelism",
                        "count=2");
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(text)
                .contains("true proc/s")
                .contains("sentences")
                .contains("split")
                .contains("count")
                .contains("Summary");
        assertThat(text).containsPattern("count\\s+2\\s");
    }

    @Test
    void runsTheCostChain() {
        int code =
                run(
                        "run",
                        "chain",
                        "--duration",
                        "1s",
                        "--stages",
                        "2",
                        "--stage-cost",
                        "cpu:5us",
                        "--rate",
                        "1000");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("map1").contains("map2");
    }

    @ParameterizedTest
    @CsvSource({
        "sensor-alerts, alerts",
        "nexmark-q1, euros",
        "nexmark-q2, selected",
        "nexmark-q3, join",
        "nexmark-q5, hottest",
        "nexmark-q8, join",
        "nexmark-q11, sessions"
    })
    void runsEachEventTimeJobByNameAndPrintsItsOperators(String job, String operator) {
        int code =
                run(
                        "run",
                        job,
                        "--duration",
                        "600ms",
                        "--print-interval",
                        "300ms",
                        "--rate",
                        "20000");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains(operator)
                .contains("sink")
                .contains("Summary");
    }

    @Test
    void badOptionsGiveAOneLineErrorWithoutTheUsage() {
        assertThat(run("run", "wordcount", "--parallelism", "nosuchop=2")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("error: job 'wordcount': no operator with id 'nosuchop'")
                .doesNotContain("usage:");
        err.reset();
        assertThat(run("run", "wordcount", "--bogus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("error: unknown option --bogus");
        err.reset();
        assertThat(run("run", "nosuchjob")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "error: job 'nosuchjob' is not a built-in job; use"
                                + " one of wordcount, chain, sensor-alerts, nexmark-q1, nexmark-q2, nexmark-q3, nexmark-q5, nexmark-q8, nexmark-q11\n");
        err.reset();
        assertThat(run("run")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "error: run needs a job name (built-in jobs are [wordcount, chain, sensor-alerts, nexmark-q1, nexmark-q2, nexmark-q3, nexmark-q5, nexmark-q8, nexmark-q11]) or --job-jar JAR --job-class CLASS\n");
        err.reset();
        assertThat(run("dance")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("error: unknown command 'dance'; use run, jobs," + " completion\n");
        err.reset();
        assertThat(run("run", "wordcount", "--rate", "warp:9")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: ").contains("warp");
        err.reset();
        assertThat(run("run", "wordcount", "--duration", "soon")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("option --duration is 'soon': write a number");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--duration 1e400s           | option --duration is '1e400s': write a number and a unit ns, us, ms, s, m or h",
                "--duration 9000h            | option --duration is 9000h; use 0s to 8760h",
                "--duration 30               | option --duration is '30': write a number and a unit",
                "--checkpoint-interval NaNs  | option --checkpoint-interval is 'NaNs': write a number and a unit",
                "--metrics-port 70000        | option --metrics-port is 70000; use a whole number from 0 to 65535",
                "--metrics-port -1           | option --metrics-port is -1; use a whole number from 0 to 65535",
                "--metrics-port http         | option --metrics-port 'http' is not a whole number; use one from 0 to 65535",
                "--print-interval 10ms       | option --print-interval is 10ms; use 100ms to 8760h",
                "--batch-size 100000         | option --batch-size is 100000; use a whole number from 1 to 65536",
                "--key-groups 0              | option --key-groups is 0; use a whole number from 1 to 32768",
                "--max-parallelism 64        | option --max-parallelism is now --key-groups (the number of key groups); write --key-groups 64",
                "--vocabulary 3000000000     | option --vocabulary is 3000000000; use a whole number from 1 to 2147483647",
                "--parallelism count=500     | option --parallelism count=500 is not a whole number from 1 to 128 (--key-groups",
                "--parallelism count=0       | option --parallelism count=0 is not a whole number from 1 to 128",
                "--key-groups 4 --parallelism count=5 | option --parallelism count=5 is not a whole number from 1 to 4",
                "--rate --duration 3s        | option --rate needs a value before --duration",
                "--rate fast                 | option --rate fast: ",
                "--cost split=bogus          | option --cost bogus: cost 'bogus' is not a valid cost",
                "--stage-cost cpu:1us        | option --stage-cost applies to job chain only, not wordcount",
                "--bogus 1                   | unknown option --bogus; --help lists the options",
                "--after-stop sleep          | option --after-stop is 'sleep'; use one of [exit, linger]",
                "--parallelism count         | option --parallelism 'count' is not OP=P; use e.g. --parallelism OP=P,OP=P",
            })
    void everyBadOptionValueIsOneErrorLineNamingTheOptionAndItsRangeWithExitCode2(
            String args, String message) {
        List<String> command = new java.util.ArrayList<>(List.of("run", "wordcount"));
        command.addAll(List.of(args.trim().split(" +")));

        int code =
                EngineMain.run(
                        command,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));

        String errors = err.toString(StandardCharsets.UTF_8);
        assertThat(code).isEqualTo(2);
        assertThat(errors).startsWith("error: " + message.trim()).endsWith("\n");
        assertThat(errors.lines()).as("one line, no usage, no stack trace").hasSize(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).as("nothing started").isEmpty();
    }

    @Test
    void aRunWhoseRecordsCannotDrainEndsWhenTheDurationEndsPlusTheDrainGrace() {
        long start = System.nanoTime();
        int code =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(60),
                        () ->
                                run(
                                        "run",
                                        "wordcount",
                                        "--cost",
                                        "split=sleep:60s",
                                        "--duration",
                                        "2s",
                                        "--rate",
                                        "100",
                                        "--print-interval",
                                        "1s"));
        double seconds = (System.nanoTime() - start) / 1e9;

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("did not drain within 5s; cancelling");
        // Not a speed figure: a bound far below the 60 s one record of split takes, which a hang
        // would hit.
        assertThat(seconds).isLessThan(2 + JobWatch.DRAIN_GRACE.toSeconds() + 15);
    }

    @Test
    void withAfterStopLingerTheRunnerKeepsServingAfterStopWithSavepointAndIsNotReady(
            @TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        AtomicInteger code = new AtomicInteger(-1);
        Thread runner =
                new Thread(
                        () ->
                                code.set(
                                        run(
                                                "run",
                                                "wordcount",
                                                "--rate",
                                                "2000",
                                                "--metrics-port",
                                                "" + port,
                                                "--savepoint-dir",
                                                dir.toString(),
                                                "--job-name",
                                                "team-a/orders",
                                                "--after-stop",
                                                "linger",
                                                "--print-interval",
                                                "10s")));
        runner.start();
        HttpClient http = HttpClient.newHttpClient();
        URI base = URI.create("http://127.0.0.1:" + port);
        awaitStatus(http, base.resolve("/api/v1/ready"), 200);
        assertThat(send(http, HttpRequest.newBuilder(base.resolve("/metrics")).build()).body())
                .contains("job=\"team-a/orders\"");

        HttpResponse<String> stop =
                send(
                        http,
                        HttpRequest.newBuilder(base.resolve("/api/v1/stop-with-savepoint"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build());
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);
        awaitStatus(http, base.resolve("/api/v1/ready"), 503);
        Await.holds(Duration.ofMillis(500), "the runner to linger after the stop", runner::isAlive);
        assertThat(send(http, HttpRequest.newBuilder(base.resolve("/api/v1/job")).build()).body())
                .contains("\"status\":\"STOPPED\"")
                .contains("team-a/orders");

        runner.interrupt();
        runner.join(10_000);
        assertThat(code.get()).isEqualTo(130);
    }

    @Test
    void withFlowscaleRunnerTokenSetTheRunnersStopNeedsTheBearerToken(@TempDir Path dir)
            throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        AtomicInteger code = new AtomicInteger(-1);
        Thread runner =
                new Thread(
                        () ->
                                code.set(
                                        EngineMain.run(
                                                List.of(
                                                        "run",
                                                        "wordcount",
                                                        "--rate",
                                                        "2000",
                                                        "--metrics-port",
                                                        "" + port,
                                                        "--savepoint-dir",
                                                        dir.toString(),
                                                        "--print-interval",
                                                        "10s"),
                                                java.util.Map.of(
                                                        "FLOWSCALE_RUNNER_TOKEN", "tok-123\n"),
                                                new PrintStream(out, true, StandardCharsets.UTF_8),
                                                new PrintStream(
                                                        err, true, StandardCharsets.UTF_8))));
        runner.start();
        HttpClient http = HttpClient.newHttpClient();
        URI stop = URI.create("http://127.0.0.1:" + port + "/api/v1/stop-with-savepoint");
        awaitStatus(http, URI.create("http://127.0.0.1:" + port + "/api/v1/ready"), 200);

        assertThat(
                        send(
                                        http,
                                        HttpRequest.newBuilder(stop)
                                                .POST(HttpRequest.BodyPublishers.noBody())
                                                .build())
                                .statusCode())
                .isEqualTo(401);
        HttpResponse<String> stopped =
                send(
                        http,
                        HttpRequest.newBuilder(stop)
                                .header("Authorization", "Bearer tok-123")
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build());

        assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
        runner.join(20_000);
        assertThat(code.get()).isZero();
    }

    @Test
    void anEmptyTokenIsRefusedAtStartRatherThanLeavingTheApiOpen(@TempDir Path dir)
            throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("token"), "\n");
        assertThat(run("run", "wordcount", "--api-token-file", file.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "error: option --api-token-file "
                                + file
                                + " holds no token; write the token into it\n");
        err.reset();
        int code =
                EngineMain.run(
                        List.of("run", "wordcount"),
                        java.util.Map.of("FLOWSCALE_RUNNER_TOKEN", " "),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("FLOWSCALE_RUNNER_TOKEN is set but empty");
    }

    @Test
    void helpIsGeneratedForEveryCommandAndListsEveryOption() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("Usage: flowscale-engine")
                .contains("run")
                .contains("jobs")
                .contains("completion");
        out.reset();
        assertThat(run("run", "--help")).isZero();
        String help = out.toString(StandardCharsets.UTF_8);
        for (String option :
                List.of(
                        "--rate",
                        "--parallelism",
                        "--cost",
                        "--key-groups",
                        "--limit",
                        "--stages",
                        "--duration",
                        "--metrics-port",
                        "--after-stop",
                        "--no-instrumentation")) {
            assertThat(help).contains(option);
        }
        assertThat(help)
                .doesNotContain("--max-parallelism")
                .contains("A built-in job: wordcount, chain, sensor-alerts, nexmark-q1,")
                .contains("nexmark-q11;");
        out.reset();
        assertThat(run()).as("no command: the usage, as a bad invocation").isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: flowscale-engine");
    }

    @Test
    void theJobsCommandListsTheCatalogueAlsoUnderItsOldNameList() {
        assertThat(run("jobs")).isZero();
        String jobs = out.toString(StandardCharsets.UTF_8);
        out.reset();
        assertThat(run("list")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(jobs)
                .contains("wordcount")
                .contains("chain")
                .contains("sensor-alerts")
                .contains("nexmark-q1 ")
                .contains("nexmark-q11");
    }

    @Test
    void theCompletionScriptCompletesTheCommandsOptionsAndJobNames() {
        assertThat(run("completion")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("complete -F")
                .contains("flowscale-engine")
                .contains("--key-groups")
                .contains(
                        "(\"wordcount\" \"chain\" \"sensor-alerts\" \"nexmark-q1\" \"nexmark-q2\""
                                + " \"nexmark-q3\" \"nexmark-q5\" \"nexmark-q8\" \"nexmark-q11\")");
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request)
            throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitStatus(HttpClient http, URI uri, int status) {
        Await.until(
                Duration.ofSeconds(20),
                uri + " to answer " + status,
                () -> statusCode(http, uri),
                code -> code == status);
    }

    /** The status {@code uri} answers with, or -1 while nothing listens there yet. */
    private static int statusCode(HttpClient http, URI uri) {
        try {
            return send(http, HttpRequest.newBuilder(uri).build()).statusCode();
        } catch (java.io.IOException notYetListening) {
            return -1;
        } catch (Exception e) {
            throw new IllegalStateException("cannot ask " + uri, e);
        }
    }

    @Test
    void checkAcceptsWhatARunAcceptsAndRejectsWhatItRejectsWithoutStartingAnything() {
        EngineMain.check(
                "wordcount",
                List.of(
                        "--rate",
                        "1000",
                        "--cost",
                        "split=sleep:2ms",
                        "--checkpoint-interval",
                        "30s"));
        // The token file exists only where the runner runs (its pod), so check() does not read it.
        EngineMain.check(
                "wordcount", List.of("--api-token-file", "/var/run/secrets/flowscale/token"));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> EngineMain.check("wordcount", List.of("--rate", "fast")))
                .hasMessageContaining("fast");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> EngineMain.check("wordcount", List.of("--cost", "nosuchop=cpu:1us")))
                .hasMessageContaining("nosuchop");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> EngineMain.check("wordcount", List.of("--bogus", "1")))
                .hasMessageContaining("--bogus");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> EngineMain.check("nosuchjob", List.of()))
                .hasMessageContaining("nosuchjob");
    }
}
