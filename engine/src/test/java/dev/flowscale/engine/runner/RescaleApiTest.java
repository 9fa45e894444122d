package dev.flowscale.engine.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.runner.api.RunnerPaths;
import dev.flowscale.testsupport.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rescales a job inside its runner through {@code POST /api/v1/rescale} over real HTTP. */
class RescaleApiTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path storage;
    private RunningJob job;
    private MetricsHttpServer server;

    @BeforeEach
    void startJob() throws Exception {
        JobBuilder builder = JobBuilder.named("rescalejob");
        builder.source("src", Sources.generator(RateProfile.constant(2000), seq -> seq))
                .map("double", x -> x * 2)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        job =
                builder.start(
                        JobConfig.defaults()
                                .withCheckpointing(CheckpointConfig.savepointsOnly(storage)));
        server =
                MetricsHttpServer.start(
                        "127.0.0.1", 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        new RescaleApi(job, Duration.ofSeconds(20)).serveOn(server, Runnable::run);
        new LatestSnapshotApi(job).serveOn(server);
    }

    @AfterEach
    void stopJob() throws Exception {
        server.close();
        job.close();
    }

    @Test
    void aRescaleRequestRescalesTheJobInThisProcessAndAnswersThePathAndTheDowntime()
            throws Exception {
        JsonNode body = post("{\"parallelism\": {\"double\": 3}}", 200);

        assertThat(body.get("path").asText()).isEqualTo(RescaleView.IN_PLACE);
        assertThat(body.get("before").get("double").asInt()).isEqualTo(2);
        assertThat(body.get("after").get("double").asInt()).isEqualTo(3);
        assertThat(body.get("downtimeSeconds").asDouble()).isPositive();
        // The engine's own outcome is the body: no keyed operator, so no key group kept or moved.
        assertThat(body.get("keyGroupsKept").isInt()).isTrue();
        assertThat(body.get("keyGroupsMoved").asInt()).isZero();
        // A heap-state rescale hands its state over in memory and writes the savepoint after.
        Path manifest = Path.of(body.get("savepoint").asText()).resolve("_metadata");
        Await.until(
                Duration.ofSeconds(20),
                "the rescale's savepoint to be written",
                () -> Files.isRegularFile(manifest));
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        assertThat(job.graph().operator("double").parallelism()).isEqualTo(3);
    }

    @Test
    void badBodiesAreRefusedWithAnErrorThatNamesTheFieldAndTheJobKeepsItsParallelism()
            throws Exception {
        assertThat(post("not json", 400).get("error").asText()).contains("not JSON");
        assertThat(post("{}", 400).get("error").asText()).contains("\"parallelism\"");
        assertThat(post("{\"parallelism\": {\"double\": 0}}", 400).get("error").asText())
                .contains("parallelism.double is 0", "integer >= 1");
        assertThat(post("{\"parallelism\": {\"nope\": 2}}", 400).get("error").asText())
                .contains("no operator 'nope'");
        assertThat(
                        post("{\"parallelism\": {\"double\": 3}, \"timeout\": 5}", 400)
                                .get("error")
                                .asText())
                .contains("unknown field \"timeout\"");
        assertThat(job.graph().operator("double").parallelism()).isEqualTo(2);
    }

    @Test
    void aStoppedJobCannotBeRescaledAndOtherMethodsAreRefused() throws Exception {
        job.stopWithSavepoint(Duration.ofSeconds(20));
        assertThat(post("{\"parallelism\": {\"double\": 3}}", 409).get("error").asText())
                .contains("is STOPPED", "needs a running job", "will not run again")
                .doesNotContain("retry");
        HttpResponse<String> get =
                http.send(
                        HttpRequest.newBuilder(uri()).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
    }

    @Test
    void theSavepointOfAStoppedJobIsReadBackWhenTheStopReplyWasLost() throws Exception {
        assertThat(get(RunnerPaths.LATEST_SNAPSHOT, 404).get("error").asText())
                .contains("no complete snapshot");
        Path savepoint = job.stopWithSavepoint(Duration.ofSeconds(20));

        JsonNode latest = get(RunnerPaths.LATEST_SNAPSHOT, 200);
        assertThat(latest.get("snapshot").asText())
                .isEqualTo(savepoint.toAbsolutePath().toString());
        assertThat(latest.get("status").asText()).isIn("STOPPED", "FINISHED");
    }

    private JsonNode get(String path, int expectedStatus) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + server.port() + path))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return mapper.readTree(response.body());
    }

    private JsonNode post(String body, int expectedStatus) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(uri())
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return mapper.readTree(response.body());
    }

    private URI uri() {
        return URI.create("http://127.0.0.1:" + server.port() + RunnerPaths.RESCALE);
    }
}
