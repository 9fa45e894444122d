package dev.flowscale.flink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * JSON over Flink's REST API with the JDK's HTTP client: every failure (unreachable endpoint, an
 * answer other than 2xx, malformed JSON) becomes a {@link FlinkConnectorException} naming the
 * method, URL and Flink's own error text. Paths are relative to the endpoint, e.g. {@code
 * jobs/overview}.
 */
public final class FlinkRestClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final Duration timeout;
    private final HttpClient client;

    /**
     * @param base the REST endpoint, e.g. {@code http://localhost:8081}
     * @param timeout connect and request timeout
     */
    public FlinkRestClient(URI base, Duration timeout) {
        Objects.requireNonNull(base, "Flink REST URL");
        if (base.getScheme() == null || !base.getScheme().startsWith("http")) {
            throw new FlinkConnectorException(
                    "Flink REST URL '" + base + "' is not http(s); use e.g. http://localhost:8081");
        }
        this.base = URI.create(base.toString().replaceAll("/+$", "") + "/");
        this.timeout = Objects.requireNonNull(timeout, "Flink REST timeout");
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    public URI base() {
        return base;
    }

    public JsonNode get(String path) {
        return send("GET", path, HttpRequest.BodyPublishers.noBody(), null);
    }

    public JsonNode post(String path, Object body) {
        return send("POST", path, json(body), "application/json");
    }

    /** {@code PATCH}, as Flink's job cancellation ({@code PATCH jobs/:id?mode=cancel}) wants. */
    public JsonNode patch(String path) {
        return send("PATCH", path, HttpRequest.BodyPublishers.noBody(), null);
    }

    public JsonNode put(String path, Object body) {
        return send("PUT", path, json(body), "application/json");
    }

    /** Uploads a jar ({@code POST jars/upload}); returns the jar id Flink gave it. */
    public String uploadJar(Path jar) {
        String boundary = "flowscale-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            body.write(
                    ("--"
                                    + boundary
                                    + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                                    + jar.getFileName()
                                    + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                            .getBytes(StandardCharsets.UTF_8));
            body.write(Files.readAllBytes(jar));
            body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new FlinkConnectorException(
                    "cannot read job jar " + jar + " (" + e + "); check the --jar path", e);
        }
        JsonNode answer =
                send(
                        "POST",
                        "jars/upload",
                        HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()),
                        "multipart/form-data; boundary=" + boundary);
        String file = answer.path("filename").asText("");
        if (file.isEmpty()) {
            throw new FlinkConnectorException(
                    "POST " + base + "jars/upload answered without a filename: " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    private static HttpRequest.BodyPublisher json(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new FlinkConnectorException("cannot write request body " + body, e);
        }
    }

    private JsonNode send(
            String method, String path, HttpRequest.BodyPublisher body, String contentType) {
        URI uri = base.resolve(path);
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(timeout).method(method, body);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new FlinkConnectorException(
                    method
                            + " "
                            + uri
                            + " failed ("
                            + e
                            + "); check that Flink's REST endpoint is up",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkConnectorException(method + " " + uri + " was interrupted", e);
        }
        return parse(method, uri, response);
    }

    private static JsonNode parse(String method, URI uri, HttpResponse<String> response) {
        String answered = method + " " + uri + " answered HTTP " + response.statusCode();
        JsonNode tree;
        try {
            String text =
                    response.body() == null || response.body().isBlank() ? "{}" : response.body();
            tree = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new FlinkConnectorException(
                    answered + " with malformed JSON: " + abbreviate(response.body()), e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new FlinkConnectorException(answered + ": " + rootCause(tree.path("errors")));
        }
        return tree;
    }

    /** Flink's errors carry whole stack traces: the first line and the deepest cause tell why. */
    private static String rootCause(JsonNode errors) {
        String text =
                errors.isArray() && errors.size() > 0 ? errors.get(0).asText() : errors.toString();
        String first = text.lines().findFirst().orElse("");
        String cause =
                text.lines()
                        .map(String::trim)
                        .filter(line -> line.startsWith("Caused by: "))
                        .reduce((a, b) -> b)
                        .map(line -> " (" + line + ")")
                        .orElse("");
        return abbreviate(first + cause);
    }

    private static String abbreviate(String text) {
        String oneLine = text == null ? "" : text.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "...";
    }

    @Override
    public String toString() {
        return "Flink REST " + base;
    }
}
