package dev.flowscale.engine.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.RunnerPaths;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds the runner's HTTP server to docs/runner-api.md: every documented path gets every method,
 * and each answer's status, JSON fields and Allow header must be the documented ones.
 */
class RunnerApiContractTest {
    static final List<String> METHODS =
            List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private RunnerApiDoc doc;
    @TempDir Path storage;
    private ServedJob served;
    private RunningJob job;
    private MetricsHttpServer server;

    /** One answer: status, Allow header, body. */
    record Answer(int status, String allow, String body) {}

    @BeforeEach
    void startJobAndServer() throws Exception {
        doc = RunnerApiDoc.read();
        JobBuilder builder = JobBuilder.named("contract");
        builder.source("src", Sources.generator(RateProfile.constant(2000), seq -> seq))
                .map("double", x -> x * 2)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        served = ServedJob.start(builder, storage, null, Duration.ofSeconds(20));
        job = served.job();
        server = served.server();
    }

    @AfterEach
    void stop() throws Exception {
        served.close();
    }

    @Test
    void theServerRoutesExactlyThePathsAndMethodsTheDocumentLists() {
        assertThat(doc.rows()).as("rows parsed from " + RunnerApiDoc.FILE).hasSizeGreaterThan(10);
        assertThat(server.routes())
                .as("routes served vs. documented in " + RunnerApiDoc.FILE)
                .isEqualTo(doc.routes());
    }

    @Test
    void theDocumentedPathsAreExactlyThePathsOfTheContractModule() {
        assertThat(doc.routes().keySet())
                .as("paths documented in %s vs. RunnerPaths.ALL", RunnerApiDoc.FILE)
                .containsExactlyInAnyOrderElementsOf(RunnerPaths.ALL);
    }

    @Test
    void everyDocumentedPathAnswersEveryMethodAsTheTableSays() throws Exception {
        for (String path : doc.routes().keySet()) {
            for (String method : METHODS) {
                if (!(method.equals("POST") && path.equals(RunnerPaths.STOP_WITH_SAVEPOINT))) {
                    check(method, path, send(method, path, ""));
                }
            }
        }
        Answer stop = send("POST", RunnerPaths.STOP_WITH_SAVEPOINT, "");
        check("POST", RunnerPaths.STOP_WITH_SAVEPOINT, stop);
        assertThat(stop.status()).isEqualTo(200);
        Answer savepointAfterStop = send("POST", RunnerPaths.SAVEPOINT, "");
        check("POST", RunnerPaths.SAVEPOINT, savepointAfterStop);
        assertThat(savepointAfterStop.status()).isEqualTo(409);
        assertThat(savepointAfterStop.body()).contains("it will not run again");
    }

    @Test
    void unknownPathsAnswer404WithAJsonErrorToEveryMethod() throws Exception {
        assertThat(doc.notFoundExamples()).contains("/", "/api", "/healthz", "/metrics/foo");
        for (String path : doc.notFoundExamples()) {
            for (String method : METHODS) {
                Answer answer = send(method, path, "");
                assertThat(answer.status()).as(method + " " + path).isEqualTo(404);
                if (!method.equals("HEAD")) {
                    assertError(answer, 404, method + " " + path);
                }
            }
        }
    }

    @Test
    void badBodiesAreRefusedAsDocumentedAndTakeNoSavepoint() throws Exception {
        for (String path : List.of(RunnerPaths.SAVEPOINT, RunnerPaths.STOP_WITH_SAVEPOINT)) {
            expectRefusal(path, "{\"timeoutSeconds\": ", 400, "is not valid JSON at line 1");
            expectRefusal(path, "{\"force\": true}", 400, "unknown field 'force'");
            expectRefusal(
                    path,
                    "{\"timeoutSeconds\": \"soon\"}",
                    400,
                    "does not match the expected shape");
            expectRefusal(
                    path, "{\"timeoutSeconds\": \"30\"}", 400, "does not match the expected shape");
            expectRefusal(
                    path, "{\"timeoutSeconds\": 1.5}", 400, "does not match the expected shape");
            expectRefusal(path, "[]", 400, "does not match the expected shape");
            expectRefusal(path, "{} {}", 400, "line 1");
            expectRefusal(path, "{\"timeoutSeconds\": 0}", 400, "timeoutSeconds 0; use 1..3600");
            expectRefusal(
                    path,
                    "x".repeat(MetricsHttpServer.MAX_BODY_BYTES + 1),
                    413,
                    "over 65536 bytes");
        }
        assertThat(savepoints()).as("no refused request took a savepoint").isEmpty();
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        Answer valid = send("POST", RunnerPaths.SAVEPOINT, "{\"timeoutSeconds\": 30}");
        assertThat(valid.status()).as(valid.body()).isEqualTo(200);
        assertThat(savepoints()).hasSize(1);
    }

    @Test
    void aTwentyMegabyteBodyIsRefusedWithoutBeingRead() throws Exception {
        try {
            Answer answer = send("POST", RunnerPaths.SAVEPOINT, "x".repeat(20 << 20));
            assertError(answer, 413, "20 MB body");
        } catch (java.io.IOException closedWhileSending) {
            // The server answered 413 and closed the connection before the client finished sending.
        }
        assertThat(savepoints()).isEmpty();
        assertThat(send("GET", RunnerPaths.READY, "").status())
                .as("the server still answers")
                .isEqualTo(200);
    }

    private void expectRefusal(String path, String body, int status, String message)
            throws Exception {
        Answer answer = send("POST", path, body);
        check("POST", path, answer);
        assertError(
                answer,
                status,
                "POST " + path + " " + body.substring(0, Math.min(body.length(), 30)));
        assertThat(mapper.readTree(answer.body()).get("error").asText()).contains(message);
    }

    /** The answer is one the table documents for this method and path, with its fields. */
    private void check(String method, String path, Answer answer) throws Exception {
        String what = method + " " + path + " answered " + answer.status() + " " + answer.body();
        Set<String> routed = doc.routes().get(path);
        if (method.equals("OPTIONS")) {
            assertThat(answer.status()).as(what).isEqualTo(204);
            assertThat(answer.allow()).as(what).isEqualTo(doc.allow(path));
        } else if (method.equals("HEAD") && routed.contains("GET")) {
            assertThat(doc.row("GET", path, answer.status()))
                    .as(what + "; documented for GET?")
                    .isPresent();
            assertThat(answer.body()).as(what).isEmpty();
        } else if (!routed.contains(method)) {
            if (method.equals("HEAD")) {
                assertThat(answer.status()).as(what).isEqualTo(405);
            } else {
                assertError(answer, 405, what);
            }
            assertThat(answer.allow()).as(what).isEqualTo(doc.allow(path));
        } else {
            RunnerApiDoc.Row row =
                    doc.row(method, path, answer.status())
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    what
                                                            + ": this status is not documented in "
                                                            + RunnerApiDoc.FILE));
            if (!row.text()) {
                assertThat(fieldNames(mapper.readTree(answer.body())))
                        .as(what + ": fields documented in " + RunnerApiDoc.FILE)
                        .isEqualTo(row.fields());
            }
        }
    }

    private void assertError(Answer answer, int status, String what) throws Exception {
        assertThat(answer.status()).as(what).isEqualTo(status);
        JsonNode body = mapper.readTree(answer.body());
        assertThat(fieldNames(body)).as(what).isEqualTo(Set.of("status", "error"));
        assertThat(body.get("status").asInt()).as(what).isEqualTo(status);
        assertThat(body.get("error").asText()).as(what).isNotBlank();
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new HashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private List<Path> savepoints() throws Exception {
        if (!Files.isDirectory(storage.resolve("savepoints"))) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(storage.resolve("savepoints"))) {
            return dirs.filter(d -> Files.exists(d.resolve("_metadata"))).toList();
        }
    }

    private Answer send(String method, String path, String body) throws Exception {
        HttpRequest request =
                HttpRequest.newBuilder(served.uri(path))
                        .method(
                                method,
                                body.isEmpty()
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(
                response.statusCode(),
                response.headers().firstValue("Allow").orElse(null),
                response.body());
    }
}
