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
import dev.flowscale.runner.api.RunnerPaths;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Takes savepoints and stops a job through the control API over real HTTP. */
class JobControlApiTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path storage;
    private RunningJob job;
    private MetricsHttpServer server;
    private JobControlApi control;

    @BeforeEach
    void startJob() throws Exception {
        JobBuilder builder = JobBuilder.named("controljob");
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
        control = new JobControlApi(job, Duration.ofSeconds(20));
        control.serveOn(server);
    }

    @AfterEach
    void stopJob() throws Exception {
        server.close();
        job.close();
    }

    @Test
    void aSavepointRequestAnswersADirectoryWithAManifestAndTheJobKeepsRunning() throws Exception {
        JsonNode body = post(RunnerPaths.SAVEPOINT, 200);
        assertThat(Path.of(body.get("savepoint").asText()).resolve("_metadata")).isRegularFile();
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        assertThat(control.awaitStopAnswered(Duration.ZERO)).as("no stop was requested").isTrue();
    }

    @Test
    void aStopRequestAnswersTheSavepointStopsTheJobAndLaterRequestsConflict() throws Exception {
        JsonNode body = post(RunnerPaths.STOP_WITH_SAVEPOINT, 200);
        assertThat(Path.of(body.get("savepoint").asText()).resolve("_metadata")).isRegularFile();
        assertThat(job.await(Duration.ofSeconds(5))).as("the job has ended").isTrue();
        // STOPPED, or FINISHED when the last task's end callback runs after stopWithSavepoint
        // returned.
        assertThat(job.status()).isIn(RunningJob.Status.STOPPED, RunningJob.Status.FINISHED);
        assertThat(control.awaitStopAnswered(Duration.ofSeconds(5))).isTrue();
        assertThat(post(RunnerPaths.SAVEPOINT, 409).get("error").asText())
                .contains("controljob", "needs a running job");
    }

    @Test
    void otherMethodsAndPathsAreRefusedWithJsonErrors() throws Exception {
        HttpResponse<String> get =
                http.send(
                        HttpRequest.newBuilder(uri(RunnerPaths.SAVEPOINT)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(mapper.readTree(get.body()).get("error").asText()).contains("use POST");
        assertThat(post(RunnerPaths.SAVEPOINT + "s", 404).get("error").asText())
                .contains(RunnerPaths.SAVEPOINT);
    }

    private JsonNode post(String path, int expectedStatus) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(uri(path))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return mapper.readTree(response.body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
