package dev.flowscale.engine.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.function.Supplier;

/** Serves one path with one method: anything else is refused with a JSON {@link ApiError}. */
final class SingleEndpoint {
    private SingleEndpoint() {
    }

    /** Answers {@code exchange} with {@code answer} when path and method match, else 404 or 405; always closes it. */
    static void serve(HttpExchange exchange, ObjectMapper mapper, String path, String method, Supplier<Object> answer)
            throws IOException {
        try {
            String asked = exchange.getRequestURI().getPath();
            Object body;
            if (!asked.equals(path)) {
                body = new ApiError(404, "no resource at " + asked + "; use " + method + " " + path);
            } else if (!exchange.getRequestMethod().equals(method)) {
                exchange.getResponseHeaders().set("Allow", method);
                body = new ApiError(405, exchange.getRequestMethod() + " " + path + " is not supported; use " + method);
            } else {
                body = answer.get();
            }
            JsonResponses.send(exchange, mapper, body);
        } finally {
            exchange.close();
        }
    }
}
