package dev.flowscale.engine.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Dispatches every request of a {@link MetricsHttpServer} by exact path and method, in this order:
 * unknown path 404, OPTIONS 204 with {@code Allow}, other methods 405 with {@code Allow}, missing
 * bearer token on a state-changing method 401, body over the limit 413; then the route. HEAD is
 * answered like GET without a body. Every error is JSON ({@link HttpReply#error}).
 */
final class HttpRouter implements HttpHandler {
    /** Methods that change state: they need the bearer token when one is set. */
    static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");

    private record Route(MetricsHttpServer.Endpoint endpoint, Executor executor) {}

    private final Map<String, Map<String, Route>> routes = new ConcurrentHashMap<>();
    private volatile byte[] token;

    void add(String method, String path, MetricsHttpServer.Endpoint endpoint, Executor executor) {
        Route previous =
                routes.computeIfAbsent(path, p -> new ConcurrentHashMap<>())
                        .putIfAbsent(method, new Route(endpoint, executor));
        if (previous != null) {
            throw new IllegalArgumentException(method + " " + path + " is already routed");
        }
    }

    void requireToken(String bearerToken) {
        token = bearerToken == null ? null : bearerToken.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(HttpExchange exchange) {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        Map<String, Route> methods = routes.get(path);
        if (methods == null) {
            send(
                    exchange,
                    HttpReply.error(
                            404,
                            "no resource at "
                                    + path
                                    + "; this server answers "
                                    + String.join(", ", endpoints())));
            return;
        }
        String allow = allow(methods);
        Route route =
                methods.get(method.equals("HEAD") && !methods.containsKey("HEAD") ? "GET" : method);
        if (method.equals("OPTIONS")) {
            send(exchange, HttpReply.empty(204).withHeader("Allow", allow));
        } else if (route == null) {
            send(
                    exchange,
                    HttpReply.error(
                                    405,
                                    method
                                            + " "
                                            + path
                                            + " is not supported; use "
                                            + String.join(" or ", new TreeSet<>(methods.keySet())))
                            .withHeader("Allow", allow));
        } else if (STATE_CHANGING.contains(method) && !authorized(exchange)) {
            send(
                    exchange,
                    HttpReply.error(
                                    401,
                                    method
                                            + " "
                                            + path
                                            + " needs the header 'Authorization: Bearer <token>'"
                                            + " with the runner's token (FLOWSCALE_RUNNER_TOKEN)")
                            .withHeader("WWW-Authenticate", "Bearer realm=\"flowscale-runner\""));
        } else {
            dispatch(exchange, route, method, path);
        }
    }

    private void dispatch(HttpExchange exchange, Route route, String method, String path) {
        byte[] body;
        try {
            body = readBody(exchange);
        } catch (HttpReply.Refusal tooLarge) {
            drain(exchange);
            send(exchange, tooLarge.reply().withHeader("Connection", "close"));
            return;
        }
        HttpCall call = new HttpCall(method, path, body);
        if (route.executor() == null) {
            send(exchange, answer(route, call));
            return;
        }
        try {
            route.executor().execute(() -> send(exchange, answer(route, call)));
        } catch (RejectedExecutionException e) {
            send(
                    exchange,
                    HttpReply.error(
                            503,
                            method
                                    + " "
                                    + path
                                    + ": too many control requests are waiting; retry"));
        }
    }

    private static HttpReply answer(Route route, HttpCall call) {
        try {
            return route.endpoint().handle(call);
        } catch (HttpReply.Refusal refusal) {
            return refusal.reply();
        } catch (RuntimeException e) {
            return HttpReply.error(500, call.method() + " " + call.path() + " failed: " + e);
        }
    }

    /** Constant-time comparison, so the time of a refusal tells nothing about the token. */
    private boolean authorized(HttpExchange exchange) {
        byte[] expected = token;
        if (expected == null) {
            return true;
        }
        String given = exchange.getRequestHeaders().getFirst("Authorization");
        // The scheme is case-insensitive (RFC 9110, 11.1); the token is compared exactly.
        String scheme = "Bearer ";
        return given != null
                && given.regionMatches(true, 0, scheme, 0, scheme.length())
                && MessageDigest.isEqual(
                        expected,
                        given.substring(scheme.length()).getBytes(StandardCharsets.UTF_8));
    }

    /** Most bytes of a refused body read and dropped before the 413 answer. */
    static final long DRAIN_LIMIT = 64L * 1024 * 1024;

    private static byte[] readBody(HttpExchange exchange) {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null
                && declared.trim().matches("\\d{1,18}")
                && Long.parseLong(declared.trim()) > MetricsHttpServer.MAX_BODY_BYTES) {
            throw tooLarge(exchange);
        }
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MetricsHttpServer.MAX_BODY_BYTES + 1);
            if (body.length > MetricsHttpServer.MAX_BODY_BYTES) {
                throw tooLarge(exchange);
            }
            return body;
        } catch (IOException e) {
            throw new HttpReply.Refusal(
                    400,
                    "the body of "
                            + exchange.getRequestMethod()
                            + " "
                            + exchange.getRequestURI().getPath()
                            + " cannot be read: "
                            + e.getMessage());
        }
    }

    /**
     * Reads and drops what is left of a refused body (up to {@value #DRAIN_LIMIT} bytes): closing a
     * connection with unread request bytes resets it, and the reset can destroy the 413 answer
     * before the client has read it.
     */
    private static void drain(HttpExchange exchange) {
        try (InputStream in = exchange.getRequestBody()) {
            long left = DRAIN_LIMIT;
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n > 0 && left > 0; n = in.read(buffer)) {
                left -= n;
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }

    private static HttpReply.Refusal tooLarge(HttpExchange exchange) {
        return new HttpReply.Refusal(
                413,
                "the body of "
                        + exchange.getRequestMethod()
                        + " "
                        + exchange.getRequestURI().getPath()
                        + " is over "
                        + MetricsHttpServer.MAX_BODY_BYTES
                        + " bytes");
    }

    private static String allow(Map<String, Route> methods) {
        Set<String> allowed = new TreeSet<>(methods.keySet());
        if (allowed.contains("GET")) {
            allowed.add("HEAD");
        }
        allowed.add("OPTIONS");
        return String.join(", ", allowed);
    }

    /** Writes {@code reply} and closes the exchange; HEAD gets the headers only. */
    static void send(HttpExchange exchange, HttpReply reply) {
        try (exchange) {
            reply.headers()
                    .forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            if (reply.contentType() != null) {
                exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            }
            boolean noBody = exchange.getRequestMethod().equals("HEAD") || reply.body().length == 0;
            exchange.sendResponseHeaders(reply.status(), noBody ? -1 : reply.body().length);
            if (!noBody) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(reply.body());
                }
            }
        } catch (IOException e) {
            // The client went away; nothing to answer.
        }
    }

    private List<String> endpoints() {
        List<String> all = new ArrayList<>();
        table().forEach((path, methods) -> methods.forEach(m -> all.add(m + " " + path)));
        return all;
    }

    /** Path to routed methods, sorted. */
    Map<String, Set<String>> table() {
        Map<String, Set<String>> table = new TreeMap<>();
        routes.forEach((path, methods) -> table.put(path, new TreeSet<>(methods.keySet())));
        return table;
    }
}
