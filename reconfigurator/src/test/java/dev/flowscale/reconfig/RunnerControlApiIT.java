package dev.flowscale.reconfig;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's control API on a real runner process. */
class RunnerControlApiIT {
    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper mapper = new ObjectMapper();
    private ProcessRunnerLauncher processes;
    private URI runner;

    @BeforeEach
    void startRunner() {
        processes = Runners.launcher(dir);
        runner = processes.start(Map.of(Runners.COUNT, 2), null);
    }

    @AfterEach
    void killTheRunner() {
        processes.close();
    }

    @Test
    void aSavepointRequestAnswersADirectoryWithAManifestAndTheRunnerKeepsRunning() throws Exception {
        HttpResponse<String> response = post("/api/v1/savepoint");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Path savepoint = Path.of(mapper.readTree(response.body()).get("savepoint").asText());
        assertThat(savepoint).startsWith(dir.resolve("snapshots"));
        assertThat(savepoint.resolve("_metadata")).isRegularFile();
        assertThat(processes.runners().get(runner).isAlive()).isTrue();
        assertThat(new RunnerClient().job(runner).status()).isEqualTo("RUNNING");
    }

    @Test
    void aStopWithSavepointRequestAnswersTheSavepointAndTheRunnerExitsWithZero() throws Exception {
        HttpResponse<String> response = post("/api/v1/stop-with-savepoint");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = mapper.readTree(response.body());
        assertThat(Path.of(body.get("savepoint").asText()).resolve("_metadata")).isRegularFile();
        Process process = processes.runners().get(runner);
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the runner exits").isTrue();
        assertThat(process.exitValue()).isZero();
    }

    private HttpResponse<String> post(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(runner.resolve(path)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
