package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.operator.api.CheckpointFailures;
import dev.flowscale.operator.api.StreamJob;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@link RunnerControl} over the runner's JSON API: {@code POST /api/v1/stop-with-savepoint},
 * {@code POST /api/v1/rescale}, {@code GET /api/v1/job} and {@code GET /api/v1/snapshots/latest}.
 * Sends {@code Authorization: Bearer <token>} with the job's token ({@link RunnerTokens}: the
 * per-job Secret) when it has one.
 */
public final class HttpRunnerControl implements RunnerControl {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Function<StreamJob, URI> address;
    private final Duration timeout;
    private final Function<StreamJob, Optional<String>> token;

    /**
     * @param address the runner API of a job ({@link #serviceAddress} in a cluster)
     * @param timeout longest wait for a savepoint or an in-place rescale
     * @param token   the bearer token of a job's runner, if it has one ({@link RunnerTokens} in a cluster)
     */
    public HttpRunnerControl(Function<StreamJob, URI> address, Duration timeout,
                             Function<StreamJob, Optional<String>> token) {
        this.address = address;
        this.timeout = timeout;
        this.token = token;
    }

    /** Without a runner token (runners started without {@value RunnerResources#TOKEN_ENV}). */
    public HttpRunnerControl(Function<StreamJob, URI> address, Duration timeout) {
        this(address, timeout, job -> Optional.empty());
    }

    /** The runner's Service in cluster DNS: {@code http://<job>-runner.<namespace>.svc:9249}. */
    public static URI serviceAddress(StreamJob job) {
        return URI.create("http://" + RunnerResources.runnerName(job) + "." + job.getMetadata().getNamespace()
                + ".svc:" + RunnerResources.API_PORT);
    }

    @Override
    public String stopWithSavepoint(StreamJob job) {
        JsonNode body = send(job, "/api/v1/stop-with-savepoint", timeout, HttpRequest.BodyPublishers.noBody(),
                "the runner keeps running");
        return required(body, "savepoint", job);
    }

    @Override
    public InPlaceRescale rescale(StreamJob job, Map<String, Integer> parallelism) {
        String request = JSON.createObjectNode().set("parallelism", JSON.valueToTree(parallelism)).toString();
        JsonNode body = send(job, "/api/v1/rescale", timeout, HttpRequest.BodyPublishers.ofString(request),
                "the engine restarted the job at its previous parallelism");
        double seconds = body.path("downtimeSeconds").asDouble();
        return new InPlaceRescale(required(body, "savepoint", job), Duration.ofNanos((long) (seconds * 1e9)));
    }

    @Override
    public RunnerState state(StreamJob job) {
        JsonNode body = send(job, "/api/v1/job", READ_TIMEOUT, null, "check that the runner is up");
        Map<String, Integer> parallelism = new TreeMap<>();
        body.path("operators").forEach(op -> parallelism.put(op.path("id").asText(), op.path("parallelism").asInt()));
        return new RunnerState(body.path("status").asText(), parallelism, checkpointFailures(body.path("checkpoints")));
    }

    /** The failure side of the runner's checkpoints object (docs/runner-api.md); null when it has none. */
    static CheckpointFailures checkpointFailures(JsonNode checkpoints) {
        if (!checkpoints.isObject()) {
            return null;
        }
        CheckpointFailures f = new CheckpointFailures();
        f.failed = checkpoints.path("failed").asLong();
        f.consecutive = checkpoints.path("consecutiveFailures").asInt();
        f.lastFailureAt = checkpoints.path("lastFailureAt").isTextual() ? checkpoints.path("lastFailureAt").asText() : null;
        f.lastFailure = checkpoints.path("lastFailure").isTextual() ? checkpoints.path("lastFailure").asText() : null;
        return f;
    }

    @Override
    public Optional<String> latestSnapshot(StreamJob job) {
        try {
            return Optional.of(required(send(job, "/api/v1/snapshots/latest", READ_TIMEOUT, null, "none is known"),
                    "snapshot", job));
        } catch (NotFound e) {
            return Optional.empty();
        }
    }

    private static String required(JsonNode body, String field, StreamJob job) {
        if (!body.hasNonNull(field)) {
            throw new OperatorException("the runner of StreamJob " + job.getMetadata().getName() + " answered without "
                    + field + ": " + body);
        }
        return body.get(field).asText();
    }

    /** A 404 answer: the resource does not exist (yet). */
    private static final class NotFound extends OperatorException {
        NotFound(String message) {
            super(message);
        }
    }

    /** GET when {@code post} is null, else POST; the parsed 200 answer. */
    private JsonNode send(StreamJob job, String path, Duration wait, HttpRequest.BodyPublisher post, String otherwise) {
        URI uri = URI.create(address.apply(job).toString().replaceAll("/+$", "") + path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(wait).header("Content-Type", "application/json");
        token.apply(job).ifPresent(t -> request.header("Authorization", "Bearer " + t));
        String method = post == null ? "GET" : "POST";
        try {
            HttpResponse<String> response = http.send(post == null ? request.GET().build() : request.POST(post).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 404) {
                throw new NotFound(method + " " + uri + " answered 404 " + response.body());
            }
            if (response.statusCode() != 200) {
                throw new OperatorException(method + " " + uri + " answered " + response.statusCode() + " "
                        + response.body() + "; " + otherwise);
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new OperatorException(method + " " + uri + " failed: " + e + "; check that the runner is up", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperatorException("interrupted during " + method + " " + uri, e);
        }
    }
}
