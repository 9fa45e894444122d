package dev.flowscale.reconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Talks to a job runner's JSON API: reads {@code GET /api/v1/job}, posts stop-with-savepoint. */
final class RunnerClient {
    static final String JOB = "/api/v1/job";
    static final String STOP_WITH_SAVEPOINT = "/api/v1/stop-with-savepoint";
    private static final Duration POLL = Duration.ofMillis(100);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper mapper = new ObjectMapper();
    private final String token;

    RunnerClient() {
        this(null);
    }

    /** {@code token}: sent as {@code Authorization: Bearer <token>} (the runner's FLOWSCALE_RUNNER_TOKEN); null: none. */
    RunnerClient(String token) {
        this.token = token;
    }

    /** What a runner says about its job: name, status (RUNNING, ...) and parallelism per operator. */
    record RunnerJob(String name, String status, Map<String, Integer> parallelism) {
        boolean runs(Map<String, Integer> expected) {
            return status.equals("RUNNING") && parallelism.entrySet().containsAll(expected.entrySet());
        }
    }

    RunnerJob job(URI runner) {
        JsonNode body = send(HttpRequest.newBuilder(runner.resolve(JOB)).timeout(Duration.ofSeconds(5)).GET().build());
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        body.path("operators").forEach(op -> parallelism.put(op.path("id").asText(), op.path("parallelism").asInt()));
        return new RunnerJob(body.path("name").asText(), body.path("status").asText(), parallelism);
    }

    /** Asks the runner to stop with a savepoint; returns the savepoint's directory. */
    Path stopWithSavepoint(URI runner, Duration timeout) {
        JsonNode body = send(HttpRequest.newBuilder(runner.resolve(STOP_WITH_SAVEPOINT)).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        String savepoint = body.path("savepoint").asText("");
        if (savepoint.isEmpty()) {
            throw new ReconfigException("runner " + runner + " answered stop-with-savepoint without a savepoint: " + body);
        }
        return Path.of(savepoint);
    }

    /**
     * Polls {@code GET /api/v1/job} until the runner reports RUNNING at {@code expected}; fails
     * after {@code timeout}, or at once when {@code alive} turns false.
     */
    RunnerJob awaitRunning(URI runner, Map<String, Integer> expected, Duration timeout, BooleanSupplier alive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (alive.getAsBoolean()) {
            try {
                RunnerJob job = job(runner);
                if (job.runs(expected)) {
                    return job;
                }
                last = job.status() + " at " + job.parallelism();
            } catch (ReconfigException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new ReconfigException("runner " + runner + " did not report RUNNING at " + expected + " within "
                        + timeout + " (last: " + last + ")");
            }
            pause();
        }
        throw new ReconfigException("runner " + runner + " exited before it reported RUNNING at " + expected
                + " (last: " + last + ")");
    }

    private JsonNode send(HttpRequest unauthenticated) {
        HttpRequest request = token == null ? unauthenticated
                : HttpRequest.newBuilder(unauthenticated, (name, value) -> true)
                        .header("Authorization", "Bearer " + token).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = mapper.readTree(response.body());
            if (response.statusCode() != 200) {
                throw new ReconfigException(request.method() + " " + request.uri() + " answered " + response.statusCode()
                        + ": " + body.path("error").asText(response.body()));
            }
            return body;
        } catch (IOException e) {
            throw new ReconfigException(request.method() + " " + request.uri() + " failed: " + e
                    + "; check that the runner runs with --metrics-port", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReconfigException(request.method() + " " + request.uri() + " was interrupted", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReconfigException("interrupted while waiting for a runner", e);
        }
    }
}
