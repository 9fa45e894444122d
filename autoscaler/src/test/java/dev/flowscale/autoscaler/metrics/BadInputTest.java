package dev.flowscale.autoscaler.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowStatus;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.testsupport.Ports;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Unreachable and misbehaving servers: the window is absent, the status says why, nothing crashes.
 */
class BadInputTest {
    /**
     * No server here is slow on purpose: the bound only ends a call that never returns, and a
     * machine loaded many times its cores can take seconds to answer on loopback.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final JobTopology TOPOLOGY =
            new JobTopology("chain", List.of(OperatorSpec.of("source", 1)), List.<Edge>of());
    private HttpServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void anUnreachableRunnerLeavesNoWindowAndTheStatusNamesTheUrlAndTheFix() {
        URI nobody = URI.create("http://127.0.0.1:" + Ports.free());

        WindowStatus status = poll(new RunnerHttpMetricsSource(nobody, TIMEOUT));

        assertThat(status.reasons())
                .singleElement()
                .asString()
                .contains("job runner " + nobody)
                .contains("GET " + nobody + "/api/v1/metrics failed")
                .contains("--metrics-port");
    }

    @Test
    void aRunnerAnsweringMalformedJsonLeavesNoWindow() throws IOException {
        serve(200, "{\"job\": \"chain\", \"runId\": ");

        WindowStatus status = poll(new RunnerHttpMetricsSource(base(), TIMEOUT));

        assertThat(status.reasons()).singleElement().asString().contains("malformed JSON");
    }

    @Test
    void aRunnerAnsweringJsonOfAnotherShapeIsRejectedNamingTheMissingFields() throws IOException {
        serve(200, "{\"hello\": \"world\"}");

        assertThatThrownBy(() -> new RunnerHttpMetricsSource(base(), TIMEOUT).sample())
                .isInstanceOf(CollectorException.class)
                .hasMessageContaining("without runId, parallelism or instances");
    }

    @Test
    void aRunnerAnsweringAnHttpErrorIsReportedWithItsStatusAndBody() throws IOException {
        serve(503, "{\"status\":503,\"error\":\"no job is attached yet\"}");

        WindowStatus status = poll(new RunnerHttpMetricsSource(base(), TIMEOUT));

        assertThat(status.reasons())
                .singleElement()
                .asString()
                .contains("HTTP 503")
                .contains("no job is attached yet");
    }

    @Test
    void givenATokenTheRunnerSourceSendsItAsABearerHeader() throws IOException {
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        serve(503, "{\"status\":503,\"error\":\"no job is attached yet\"}");
        server.createContext(
                "/api/v1/metrics",
                exchange -> {
                    seen.add(
                            String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
                    exchange.sendResponseHeaders(503, -1);
                    exchange.close();
                });

        poll(new RunnerHttpMetricsSource(base(), TIMEOUT, "tok-7"));
        poll(new RunnerHttpMetricsSource(base(), TIMEOUT));

        assertThat(seen).containsExactly("Bearer tok-7", "null");
    }

    @Test
    void aPrometheusQueryWithNoDataLeavesNoWindow() throws IOException {
        serve(200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");

        WindowStatus status = poll(prometheus());

        assertThat(status.reasons())
                .singleElement()
                .asString()
                .contains("no flowscale_* series for job 'chain'");
    }

    @Test
    void aPrometheusQueryErrorIsReported() throws IOException {
        serve(400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}");

        WindowStatus status = poll(prometheus());

        assertThat(status.reasons())
                .singleElement()
                .asString()
                .contains("HTTP 400")
                .contains("parse error");
    }

    @Test
    void aPrometheusSeriesWithAHostInstanceLabelAsksForHonorLabels() throws IOException {
        serve(
                200,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":"
                        + "{\"__name__\":\"flowscale_records_in_total\",\"job\":\"chain\",\"operator\":\"source\","
                        + "\"instance\":\"10.0.0.1:9249\"},\"value\":[1700000000,\"5\"]}]}}");

        assertThatThrownBy(() -> prometheus().sample())
                .isInstanceOf(CollectorException.class)
                .hasMessageContaining("honor_labels: true");
    }

    private PrometheusMetricsSource prometheus() {
        return new PrometheusMetricsSource(
                base(), "chain", () -> TOPOLOGY, Clock.systemUTC(), TIMEOUT);
    }

    private static WindowStatus poll(MetricsSource source) {
        WindowedMetricsProvider provider =
                new WindowedMetricsProvider(
                        source,
                        new WindowSettings(Duration.ofSeconds(1), Duration.ZERO),
                        List.of());
        WindowStatus status = provider.poll();
        assertThat(provider.currentWindow()).isEmpty();
        assertThat(status.complete()).isFalse();
        return status;
    }

    private void serve(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/",
                exchange -> {
                    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(status, bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                });
        server.start();
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }
}
