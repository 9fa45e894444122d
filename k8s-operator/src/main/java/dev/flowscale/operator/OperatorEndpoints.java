package dev.flowscale.operator;

import dev.flowscale.engine.metrics.MetricsHttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * The operator's HTTP endpoints: {@code /metrics} (Prometheus: the controller metrics of every
 * job, {@code flowscale_controller_*}), {@code /health} (liveness) and {@code /readyz} (200 once
 * the operator's controllers have started, 503 before).
 */
final class OperatorEndpoints {
    static final int DEFAULT_PORT = 8080;

    private OperatorEndpoints() {
    }

    static MetricsHttpServer start(int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        return MetricsHttpServer.start("0.0.0.0", port, registry).context("/readyz", exchange -> {
            boolean ok = ready.getAsBoolean();
            byte[] body = (ok ? "ready\n" : "starting\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            } catch (IOException e) {
                exchange.close();
            }
        });
    }
}
