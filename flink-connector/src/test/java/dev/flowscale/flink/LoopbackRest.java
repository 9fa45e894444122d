package dev.flowscale.flink;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * An HTTP server on loopback that answers paths with recorded Flink REST answers, and a client to
 * it: for unit tests of how REST answers become flowscale's model.
 */
final class LoopbackRest implements AutoCloseable {
    private final HttpServer server;
    private final FlinkRestClient client;

    LoopbackRest() {
        try {
            server =
                    HttpServer.create(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.start();
        client =
                new FlinkRestClient(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                        Duration.ofSeconds(5));
    }

    FlinkRestClient client() {
        return client;
    }

    /** Answers {@code path} and every path under it with {@code status} and the body given then. */
    void answer(String path, int status, Supplier<String> body) {
        server.createContext(
                path,
                exchange -> {
                    byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(status, bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                });
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
