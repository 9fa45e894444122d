package dev.flowscale.engine.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.RunnerPaths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With a token set, state-changing requests need it as a bearer token; reads stay open. */
class RunnerApiAuthTest {
    private static final String TOKEN = "s3cret-token-of-job-a";
    private final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path storage;
    private ServedJob served;
    private RunningJob job;

    @BeforeEach
    void startJob() {
        JobBuilder builder = JobBuilder.named("guarded");
        builder.source("src", Sources.generator(RateProfile.constant(1000), seq -> seq))
                .sink("sink", Sinks.counting());
        served = ServedJob.start(builder, storage, TOKEN, Duration.ofSeconds(20));
        job = served.job();
    }

    @AfterEach
    void stop() throws Exception {
        served.close();
    }

    @Test
    void controlRequestsWithoutTheRightBearerTokenAre401AndTakeNoSavepoint() throws Exception {
        for (String path : List.of(RunnerPaths.SAVEPOINT, RunnerPaths.STOP_WITH_SAVEPOINT)) {
            for (String header :
                    new String[] {
                        null, "Bearer wrong", "Bearer " + TOKEN + "x", TOKEN, "Basic " + TOKEN
                    }) {
                HttpResponse<String> answer = post(path, header);
                assertThat(answer.statusCode()).as(path + " with " + header).isEqualTo(401);
                assertThat(answer.headers().firstValue("WWW-Authenticate"))
                        .hasValue("Bearer realm=\"flowscale-runner\"");
                assertThat(new ObjectMapper().readTree(answer.body()).get("error").asText())
                        .contains("Authorization: Bearer")
                        .doesNotContain(TOKEN);
            }
        }
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
        assertThat(storage.resolve("savepoints")).isEmptyDirectory();
    }

    @Test
    void theRightBearerTokenTakesTheSavepoint() throws Exception {
        HttpResponse<String> answer = post(RunnerPaths.SAVEPOINT, "Bearer " + TOKEN);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).contains("savepoint");
    }

    @Test
    void theAuthSchemeIsMatchedWhateverItsCase() throws Exception {
        HttpResponse<String> answer = post(RunnerPaths.SAVEPOINT, "bearer " + TOKEN);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(post(RunnerPaths.SAVEPOINT, "BEARER " + TOKEN.toUpperCase()).statusCode())
                .as("the token itself is compared exactly")
                .isEqualTo(401);
    }

    @Test
    void healthReadinessMetricsAndStatusStayOpen() throws Exception {
        for (String path :
                List.of(
                        "/health",
                        "/metrics",
                        RunnerPaths.READY,
                        RunnerPaths.JOB,
                        RunnerPaths.METRICS)) {
            HttpResponse<String> answer =
                    http.send(
                            HttpRequest.newBuilder(uri(path)).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
        }
    }

    private HttpResponse<String> post(String path, String authorization) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return served.uri(path);
    }
}
