package dev.flowscale.autoscaler.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * GETs JSON from a Prometheus server with timeouts and turns every failure into a {@link
 * CollectorException} naming the URL.
 */
final class JsonHttp {
    private final HttpClient client;
    private final Duration timeout;
    private final ObjectMapper mapper =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    JsonHttp(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "HTTP timeout");
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The body of a 200 answer as a JSON tree. */
    JsonNode get(URI uri, String fix) {
        HttpResponse<String> response = send(uri, fix);
        if (response.statusCode() != 200) {
            throw new CollectorException(
                    "GET "
                            + uri
                            + " answered HTTP "
                            + response.statusCode()
                            + ": "
                            + abbreviate(response.body())
                            + "; "
                            + fix);
        }
        try {
            return mapper.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new CollectorException(
                    "GET "
                            + uri
                            + " answered malformed JSON ("
                            + e.getOriginalMessage()
                            + "): "
                            + abbreviate(response.body())
                            + "; "
                            + fix,
                    e);
        }
    }

    private HttpResponse<String> send(URI uri, String fix) {
        HttpRequest request =
                HttpRequest.newBuilder(uri)
                        .timeout(timeout)
                        .header("Accept", "application/json")
                        .GET()
                        .build();
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
