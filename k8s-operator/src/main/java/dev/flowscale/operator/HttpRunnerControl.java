package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Function;
import dev.flowscale.operator.api.StreamJob;

/** {@link RunnerControl} over the runner's JSON API ({@code POST /api/v1/stop-with-savepoint}), authenticated by the job's token. */
public final class HttpRunnerControl implements RunnerControl {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Function<StreamJob, URI> address;
    private final Duration timeout;
    private final Function<StreamJob, String> token;

    /**
     * @param address the runner API of a job ({@link KubernetesRunnerLauncher#serviceAddress} in a cluster)
     * @param timeout longest wait for the savepoint
     * @param token   the job's control API token, sent as {@code Authorization: Bearer <token>}
     *                ({@link RunnerTokens} in a cluster)
     */
    public HttpRunnerControl(Function<StreamJob, URI> address, Duration timeout, Function<StreamJob, String> token) {
        this.address = address;
        this.timeout = timeout;
        this.token = token;
    }

    @Override
    public String stopWithSavepoint(StreamJob job) {
        URI runner = address.apply(job);
        URI uri = URI.create(runner.toString().replaceAll("/+$", "") + "/api/v1/stop-with-savepoint");
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Authorization", "Bearer " + token.apply(job))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200 || !body.hasNonNull("savepoint")) {
                throw new OperatorException("POST " + uri + " answered " + response.statusCode() + " " + response.body()
                        + "; the runner keeps running");
            }
            return body.get("savepoint").asText();
        } catch (IOException e) {
            throw new OperatorException("POST " + uri + " failed: " + e + "; check that the runner is up", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperatorException("interrupted while stopping the runner " + runner + " with a savepoint", e);
        }
    }
}
