package dev.flowscale.engine.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes a JSON response for the runner's APIs: an {@link ApiError} carries its own status, anything else is 200. */
final class JsonResponses {
    private JsonResponses() {
    }

    static void send(HttpExchange exchange, ObjectMapper mapper, Object body) throws IOException {
        int code = body instanceof ApiError e ? e.status() : 200;
        byte[] bytes = json(mapper, body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static byte[] json(ObjectMapper mapper, Object body) {
        try {
            return mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            return ("{\"status\":500,\"error\":\"cannot write JSON: " + e.getOriginalMessage().replace('"', '\'')
                    + "\"}").getBytes(StandardCharsets.UTF_8);
        }
    }
}
