package dev.flowscale.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.testsupport.Await;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Prometheus server (Debian package {@code prometheus}) started by a test on a free loopback
 * port: scrapes the targets of a {@link ScrapeTargets} file every second with {@code honor_labels:
 * true}, as flowscale's {@code job} label must survive the scrape.
 */
final class PrometheusServer implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final Process process;
    private final Path log;
    private final URI uri;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final ObjectMapper json = new ObjectMapper();

    private PrometheusServer(Process process, Path log, URI uri) {
        this.process = process;
        this.log = log;
        this.uri = uri;
    }

    /** The prometheus binary on the PATH, if any. */
    static Optional<Path> binary() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(dir -> Path.of(dir, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    static PrometheusServer start(Path binary, Path dir, ScrapeTargets targets) throws Exception {
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, config(targets.file()));
        int port = FreePort.find();
        Path log = dir.resolve("prometheus.log");
        Process process =
                new ProcessBuilder(
                                binary.toString(),
                                "--config.file=" + config,
                                "--storage.tsdb.path=" + dir.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + port)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        PrometheusServer server =
                new PrometheusServer(process, log, URI.create("http://127.0.0.1:" + port));
        Await.until(
                Duration.ofSeconds(30), "Prometheus to be ready on port " + port, server::ready);
        return server;
    }

    private static String config(Path targets) {
        return """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: flowscale
                    honor_labels: true
                    file_sd_configs:
                      - files: ['%s']
                        refresh_interval: 1s
                """
                .formatted(targets);
    }

    private boolean ready() {
        assertAlive();
        try {
            return http.send(
                                    HttpRequest.newBuilder(uri.resolve("/-/ready"))
                                            .timeout(TIMEOUT)
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Fails with Prometheus' output if it has exited. */
    void assertAlive() {
        if (!process.isAlive()) {
            throw new AssertionError(
                    "Prometheus exited with " + process.exitValue() + ":\n" + output());
        }
    }

    /** GET /api/v1/query_range: the matrix of {@code expr} from {@code start} to {@code end}. */
    List<PromSeries> queryRange(String expr, Instant start, Instant end, Duration step)
            throws Exception {
        JsonNode data =
                get(
                        "/api/v1/query_range?query="
                                + encode(expr)
                                + "&start="
                                + start.getEpochSecond()
                                + "&end="
                                + (end.getEpochSecond() + 1)
                                + "&step="
                                + step.toSeconds()
                                + "s");
        List<PromSeries> series = new ArrayList<>();
        data.path("result").forEach(s -> series.add(PromSeries.of(s)));
        return series;
    }

    /** GET /api/v1/label/NAME/values restricted to the series {@code match} selects. */
    List<String> labelValues(String label, String match) throws Exception {
        List<String> values = new ArrayList<>();
        get("/api/v1/label/" + label + "/values?match[]=" + encode(match))
                .forEach(v -> values.add(v.asText()));
        return values;
    }

    private JsonNode get(String pathAndQuery) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(uri + pathAndQuery))
                                .timeout(TIMEOUT)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode body = json.readTree(response.body());
        if (response.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
            throw new AssertionError(
                    "Prometheus answered "
                            + response.statusCode()
                            + " to "
                            + pathAndQuery
                            + ": "
                            + response.body());
        }
        return body.path("data");
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
