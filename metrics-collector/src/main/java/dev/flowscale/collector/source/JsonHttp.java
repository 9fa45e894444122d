package dev.flowscale.collector.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.collector.CollectorException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/** GETs JSON with timeouts and turns every failure into a {@link CollectorException} naming the URL. */
final class JsonHttp {
    private final HttpClient client;
    private final Duration timeout;
    private final ObjectMapper mapper = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final String token;

    JsonHttp(Duration timeout) {
        this(timeout, null);
    }

    /** {@code token}: sent as {@code Authorization: Bearer <token>}; null: none. */
    JsonHttp(Duration timeout, String token) {
        this.timeout = Objects.requireNonNull(timeout, "HTTP timeout");
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.token = token;
    }

    /** The body of a 200 answer as a JSON tree. */
    JsonNode get(URI uri, String fix) {
        HttpResponse<String> response = send(uri, fix);
        if (response.statusCode() != 200) {
            throw new CollectorException("GET " + uri + " answered HTTP " + response.statusCode() + ": "
                    + abbreviate(response.body()) + "; " + fix);
        }
        try {
            return mapper.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new CollectorException("GET " + uri + " answered malformed JSON (" + e.getOriginalMessage()
                    + "): " + abbreviate(response.body()) + "; " + fix, e);
        }
    }

    /** Reads {@code node} as a {@code type}; a missing or mistyped field names the URL and field. */
    <T> T convert(URI uri, JsonNode node, Class<T> type) {
        try {
            T value = mapper.treeToValue(node, type);
            if (value == null) {
                throw new CollectorException("GET " + uri + " answered an empty body; expected a "
                        + type.getSimpleName());
            }
            return value;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new CollectorException("GET " + uri + " answered JSON that is not a " + type.getSimpleName()
                    + ": " + e.getMessage(), e);
        }
    }

    private HttpResponse<String> send(URI uri, String fix) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json");
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        HttpRequest request = builder.GET().build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new CollectorException("GET " + uri + " failed (" + e + "); " + fix, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CollectorException("GET " + uri + " was interrupted", e);
        }
    }

    private static String abbreviate(String body) {
        String oneLine = body == null ? "" : body.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }
}
