package dev.flowscale.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on loopback in front of a Flink REST endpoint that passes every request on, except
 * {@code POST jars/:id/run} while told to refuse it: that gets 503 with Flink's error shape, as
 * from a JobManager that cannot take a job now. A savepoint rescale then stops after its savepoint
 * and before the jar runs again.
 */
final class JarRunRefusingProxy implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final URI target;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicBoolean refusing = new AtomicBoolean();
    private final AtomicInteger refused = new AtomicInteger();

    JarRunRefusingProxy(URI target) throws IOException {
        this.target = URI.create(target.toString().replaceAll("/+$", ""));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    void refuseRuns(boolean refuse) {
        refusing.set(refuse);
    }

    /** How many jar runs were refused so far. */
    int refusedRuns() {
        return refused.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().toString();
            if (refusing.get()
                    && "POST".equals(exchange.getRequestMethod())
                    && path.matches("/(v1/)?jars/[^/]+/run.*")) {
                refused.incrementAndGet();
                answer(exchange, 503, "{\"errors\":[\"the test refuses to run jars now\"]}");
                return;
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(target + path))
                            .timeout(Duration.ofSeconds(60))
                            .method(
                                    exchange.getRequestMethod(),
                                    body.length == 0
                                            ? HttpRequest.BodyPublishers.noBody()
                                            : HttpRequest.BodyPublishers.ofByteArray(body));
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type != null) {
                request.header("Content-Type", type);
            }
            HttpResponse<String> response =
                    client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            answer(exchange, response.statusCode(), response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
