package dev.flowscale.engine.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.flowscale.engine.api.EngineException;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * Serves a Prometheus registry in the text exposition format at {@code /metrics} (and
 * {@code /health}) on a port; port 0 picks a free one.
 */
public final class MetricsHttpServer implements AutoCloseable {
    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;

    private MetricsHttpServer(HttpServer server) {
        this.server = server;
    }

    public static MetricsHttpServer start(String host, int port, PrometheusMeterRegistry registry) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
            server.createContext("/metrics", exchange -> respond(exchange, 200, TEXT_FORMAT, registry.scrape()));
            server.createContext("/health", exchange -> respond(exchange, 200, "text/plain", "ok\n"));
            server.setExecutor(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "flowscale-metrics-http");
                t.setDaemon(true);
                return t;
            }));
            server.start();
            return new MetricsHttpServer(server);
        } catch (IOException e) {
            throw new EngineException("metrics endpoint: cannot listen on " + host + ":" + port + " (" + e.getMessage()
                    + "); choose another --metrics-port", e);
        }
    }

    /** Also serves {@code handler} at {@code path} and below (e.g. the job runner's JSON API). */
    public MetricsHttpServer context(String path, HttpHandler handler) {
        server.createContext(path, handler);
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
