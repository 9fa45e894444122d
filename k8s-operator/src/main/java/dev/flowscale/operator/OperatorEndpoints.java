package dev.flowscale.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.flowscale.operator.core.OperatorException;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operator's HTTP endpoints on the JDK's server: {@code GET /metrics} (Prometheus: the
 * controller metrics of every job, {@code flowscale_controller_*}), {@code GET /health} (liveness:
 * 200 while the operator works, 503 once it has died; see {@link OperatorLiveness}) and {@code GET
 * /readyz} (200 once the operator's controllers have started, 503 before). Other paths answer 404,
 * other methods 405. Two threads serve, so a slow scrape never delays a probe.
 */
final class OperatorEndpoints implements AutoCloseable {
    static final int DEFAULT_PORT = 8080;
    private static final String JSON = "application/json";
    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    /** One answer: status, content type and body. */
    private record Reply(int status, String contentType, String body) {}

    private final HttpServer server;
    private final ExecutorService pool;

    private OperatorEndpoints(HttpServer server, ExecutorService pool) {
        this.server = server;
        this.pool = pool;
    }

    /** Serves on {@code port} of every interface (0 picks a free one). */
    static OperatorEndpoints start(
            int port,
            PrometheusMeterRegistry registry,
            BooleanSupplier ready,
            BooleanSupplier alive) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(port), 0);
        } catch (IOException | IllegalArgumentException e) {
            throw new OperatorException(
                    "the operator's endpoints cannot listen on port "
                            + port
                            + " ("
                            + e.getMessage()
                            + "); set FLOWSCALE_OPERATOR_PORT to a free port",
                    e);
        }
        Map<String, Supplier<Reply>> routes =
                Map.of(
                        "/metrics", () -> new Reply(200, TEXT_FORMAT, registry.scrape()),
                        "/health",
                                () ->
                                        alive.getAsBoolean()
                                                ? new Reply(200, JSON, "{\"status\":\"UP\"}")
                                                : new Reply(503, JSON, "{\"status\":\"DOWN\"}"),
                        "/readyz",
                                () ->
                                        ready.getAsBoolean()
                                                ? new Reply(200, "text/plain", "ready\n")
                                                : new Reply(503, "text/plain", "starting\n"));
        server.createContext("/", exchange -> send(exchange, answer(exchange, routes)));
        ExecutorService pool =
                Executors.newFixedThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "flowscale-operator-http");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(pool);
        server.start();
        return new OperatorEndpoints(server, pool);
    }

    int port() {
        return server.getAddress().getPort();
    }

    private static Reply answer(HttpExchange exchange, Map<String, Supplier<Reply>> routes) {
        String path = exchange.getRequestURI().getPath();
        Supplier<Reply> route = routes.get(path);
        if (route == null) {
            return new Reply(
                    404,
                    "text/plain",
                    "no resource at " + path + "; this server answers " + routes.keySet() + "\n");
        }
        String method = exchange.getRequestMethod();
        return method.equals("GET") || method.equals("HEAD")
                ? route.get()
                : new Reply(
                        405, "text/plain", method + " " + path + " is not supported; use GET\n");
    }

    private static void send(HttpExchange exchange, Reply reply) {
        try (exchange) {
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            if (reply.status() == 405) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            }
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(reply.status(), head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
