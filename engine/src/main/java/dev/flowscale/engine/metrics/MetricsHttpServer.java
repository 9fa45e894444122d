package dev.flowscale.engine.metrics;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.runner.api.RunnerPaths;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves a Prometheus registry in the text exposition format at {@code GET /metrics} and {@code GET
 * /health} on a port (0 picks a free one), plus any routes added with {@link #route}. Requests are
 * served by a small pool, so a slow route never delays a probe; routes that do long work pass their
 * own executor. Unknown paths, methods and oversized bodies get JSON errors (see {@link
 * HttpRouter}).
 */
public final class MetricsHttpServer implements AutoCloseable {
    /** The largest request body any route accepts; larger ones are answered 413. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    private static final int THREADS = 4;

    /** Answers one routed request. */
    @FunctionalInterface
    public interface Endpoint {
        /**
         * @throws HttpReply.Refusal to answer with its status and message (e.g. 400, 409)
         */
        HttpReply handle(HttpCall call);
    }

    private final HttpServer server;
    private final HttpRouter router = new HttpRouter();
    private final ExecutorService pool;

    private MetricsHttpServer(HttpServer server, ExecutorService pool) {
        this.server = server;
        this.pool = pool;
    }

    public static MetricsHttpServer start(String host, int port, PrometheusMeterRegistry registry) {
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException | IllegalArgumentException e) {
            throw new EngineException(
                    "metrics endpoint: cannot listen on "
                            + host
                            + ":"
                            + port
                            + " ("
                            + e.getMessage()
                            + "); choose another --metrics-port",
                    e);
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, daemons("flowscale-http"));
        MetricsHttpServer server = new MetricsHttpServer(http, pool);
        http.createContext("/", server.router);
        http.setExecutor(pool);
        server.route(
                "GET",
                RunnerPaths.PROMETHEUS,
                call -> HttpReply.text(200, TEXT_FORMAT, registry.scrape()));
        server.route(
                "GET", RunnerPaths.HEALTH, call -> HttpReply.json(200, Map.of("status", "UP")));
        http.start();
        return server;
    }

    /**
     * Serves {@code endpoint} for {@code method} at exactly {@code path}, on the server's pool. GET
     * routes answer HEAD too. Register each method and path once.
     */
    public MetricsHttpServer route(String method, String path, Endpoint endpoint) {
        router.add(method, path, endpoint, null);
        return this;
    }

    /**
     * Like {@link #route}, but runs {@code endpoint} on {@code executor} and frees the server's
     * thread meanwhile: for control work that may take long (a single-thread executor also
     * serializes it). A full executor is answered 503.
     */
    public MetricsHttpServer route(
            String method, String path, Endpoint endpoint, Executor executor) {
        router.add(method, path, endpoint, executor);
        return this;
    }

    /**
     * From now on POST, PUT, PATCH and DELETE need {@code Authorization: Bearer <token>}; null
     * leaves them open. GET, HEAD and OPTIONS stay open (probes, scrapes, status).
     */
    public MetricsHttpServer requireBearerToken(String token) {
        router.requireToken(token);
        return this;
    }

    /** Every routed path with its methods, for checking a route table against its documentation. */
    public Map<String, Set<String>> routes() {
        return router.table();
    }

    /**
     * Also serves {@code handler} at {@code path} and below, outside the routing (e.g. a readiness
     * probe).
     */
    public MetricsHttpServer context(String path, HttpHandler handler) {
        server.createContext(path, handler);
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
