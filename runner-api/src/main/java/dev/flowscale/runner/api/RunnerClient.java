package dev.flowscale.runner.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one typed client of the runner API (docs/runner-api.md) on the JDK {@link HttpClient}. Every
 * call answers the contract's record or throws a {@link RunnerApiException} naming the request, the
 * runner's answer and what to do; fields the client does not know are ignored, so a newer runner
 * stays readable. With a token, every request carries {@code Authorization: Bearer <token>} (the
 * runner needs it on POST).
 */
public final class RunnerClient {
    /** Extra time a control call waits beyond the snapshot timeout it asks the runner for. */
    static final Duration ANSWER_MARGIN = Duration.ofSeconds(5);

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final HttpClient http;
    private final URI base;
    private final Duration readTimeout;
    private final String token;

    /**
     * @param http shared by the clients of many runners (it owns threads and connections)
     * @param base the runner's address, e.g. {@code http://host:9249}
     * @param readTimeout longest wait for an answer to a read
     * @param token the runner's FLOWSCALE_RUNNER_TOKEN; null: none
     */
    public RunnerClient(HttpClient http, URI base, Duration readTimeout, String token) {
        this.http = Objects.requireNonNull(http, "runner API client: HTTP client");
        this.base =
                URI.create(
                        Objects.requireNonNull(base, "runner API client: runner URL")
                                .toString()
                                .replaceAll("/+$", ""));
        if (readTimeout == null || readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "runner API client: read timeout is " + readTimeout + "; use > 0");
        }
        this.readTimeout = readTimeout;
        this.token = token;
    }

    /** A client with its own HTTP client, connecting within {@code timeout}. */
    public static RunnerClient connect(URI base, Duration timeout, String token) {
        return new RunnerClient(
                HttpClient.newBuilder().connectTimeout(timeout).build(), base, timeout, token);
    }

    public URI base() {
        return base;
    }

    /** {@code GET /api/v1/job}. */
    public JobView job() {
        return read(RunnerPaths.JOB, JobView.class);
    }

    /** {@code GET /api/v1/metrics}. */
    public MetricsView metrics() {
        return read(RunnerPaths.METRICS, MetricsView.class);
    }

    /** {@code GET /api/v1/ready}: ready on 200; not ready, with the runner's reason, on 503. */
    public Readiness readiness() {
        Answer answer = send("GET", RunnerPaths.READY, null, readTimeout);
        if (answer.status() == 503) {
            return new Readiness(false, answer.error());
        }
        return answer.as(200, Readiness.class);
    }

    /**
     * {@code POST /api/v1/savepoint}: the job keeps running; the snapshot may take {@code timeout}.
     */
    public SavepointView savepoint(Duration timeout) {
        return control(RunnerPaths.SAVEPOINT, timeout);
    }

    /**
     * {@code POST /api/v1/stop-with-savepoint}: idempotent; the snapshot may take {@code timeout}.
     */
    public SavepointView stopWithSavepoint(Duration timeout) {
        return control(RunnerPaths.STOP_WITH_SAVEPOINT, timeout);
    }

    /** {@code POST /api/v1/rescale}, waiting up to {@code timeout} for the runner's answer. */
    public RescaleView rescale(Map<String, Integer> parallelism, Duration timeout) {
        return send(
                        "POST",
                        RunnerPaths.RESCALE,
                        new RescaleRequest(Map.copyOf(parallelism)),
                        timeout)
                .as(200, RescaleView.class);
    }

    /**
     * {@code GET /api/v1/snapshots/latest}; empty when the runner answers 404 (no snapshot yet).
     */
    public Optional<SnapshotView> latestSnapshot() {
        Answer answer = send("GET", RunnerPaths.LATEST_SNAPSHOT, null, readTimeout);
        return answer.status() == 404
                ? Optional.empty()
                : Optional.of(answer.as(200, SnapshotView.class));
    }

    private SavepointView control(String path, Duration timeout) {
        long seconds =
                Math.max(
                        ControlRequest.MIN_TIMEOUT,
                        Math.min(ControlRequest.MAX_TIMEOUT, (timeout.toMillis() + 999) / 1000));
        return send(
                        "POST",
                        path,
                        new ControlRequest((int) seconds),
                        Duration.ofSeconds(seconds).plus(ANSWER_MARGIN))
                .as(200, SavepointView.class);
    }

    private <T> T read(String path, Class<T> type) {
        return send("GET", path, null, readTimeout).as(200, type);
    }

    private Answer send(String method, String path, Object body, Duration wait) {
        URI uri = URI.create(base + path);
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(wait).header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        String call = method + " " + uri;
        try {
            request.method(
                    method,
                    body == null
                            ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            return new Answer(
                    call, http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new RunnerApiException(
                    RunnerApiException.NO_ANSWER,
                    call
                            + " failed ("
                            + e
                            + "); check that the runner runs with --metrics-port and that the URL is right",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunnerApiException(
                    RunnerApiException.NO_ANSWER, call + " was interrupted", e);
        }
    }

    /** One HTTP answer of the runner. */
    private record Answer(String call, HttpResponse<String> response) {
        int status() {
            return response.statusCode();
        }

        /**
         * The runner's error text (the {@link ApiError} body), or the raw body when it is not one.
         */
        String error() {
            try {
                ApiError error = JSON.readValue(response.body(), ApiError.class);
                return error != null && error.error() != null ? error.error() : abbreviated();
            } catch (JsonProcessingException e) {
                return abbreviated();
            }
        }

        <T> T as(int expected, Class<T> type) {
            if (status() != expected) {
                throw new RunnerApiException(
                        status(), call + " answered HTTP " + status() + ": " + error());
            }
            try {
                T value = JSON.readValue(response.body(), type);
                if (value == null) {
                    throw new RunnerApiException(
                            status(),
                            call + " answered an empty body; expected a " + type.getSimpleName(),
                            null);
                }
                return value;
            } catch (JsonParseException e) {
                throw new RunnerApiException(
                        status(),
                        call
                                + " answered malformed JSON ("
                                + e.getOriginalMessage()
                                + "): "
                                + abbreviated(),
                        e);
            } catch (JsonProcessingException e) {
                throw new RunnerApiException(
                        status(),
                        call
                                + " answered JSON that is not a "
                                + type.getSimpleName()
                                + " ("
                                + e.getOriginalMessage()
                                + "): "
                                + abbreviated(),
                        e);
            }
        }

        private String abbreviated() {
            String oneLine =
                    response.body() == null ? "" : response.body().replaceAll("\\s+", " ").trim();
            return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
        }
    }
}
