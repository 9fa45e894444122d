package dev.flowscale.engine.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP answer of a {@link MetricsHttpServer} route: status, content type, body and extra
 * headers. Errors are JSON {@code {"status": <code>, "error": "<what to do>"}}.
 */
public record HttpReply(int status, String contentType, byte[] body, Map<String, String> headers) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** {@code value} as JSON. */
    public static HttpReply json(int status, Object value) {
        try {
            return new HttpReply(
                    status, "application/json", MAPPER.writeValueAsBytes(value), Map.of());
        } catch (JsonProcessingException e) {
            return error(500, "cannot write the answer as JSON: " + e.getOriginalMessage());
        }
    }

    /** The JSON error body every route answers with. */
    public static HttpReply error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", message);
        return json(status, body);
    }

    public static HttpReply text(int status, String contentType, String body) {
        return new HttpReply(status, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    /** No body, e.g. 204 to OPTIONS. */
    public static HttpReply empty(int status) {
        return new HttpReply(status, null, new byte[0], Map.of());
    }

    /** This reply with one more header. */
    public HttpReply withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new HttpReply(status, contentType, body, Map.copyOf(more));
    }

    /** Thrown by a route to answer with {@code reply} (e.g. 400 for a bad body). */
    public static final class Refusal extends RuntimeException {
        private final transient HttpReply reply;

        public Refusal(int status, String message) {
            super(message, null, false, false);
            this.reply = error(status, message);
        }

        public HttpReply reply() {
            return reply;
        }
    }
}
