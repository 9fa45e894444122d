package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.metrics.PrometheusMetricsSource;
import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import dev.flowscale.autoscaler.testing.MetricsSourceContract;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowStatus;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runner.JobRunnerApi;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.ChildProcess;
import dev.flowscale.testsupport.Ports;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract against a real Prometheus server (Debian package {@code prometheus}; skipped with a
 * message where the binary is missing, .ci/run installs it) scraping a running job every second.
 * The topology comes from the job runner API, as in a deployment without configuration.
 */
class PrometheusMetricsSourceIT extends MetricsSourceContract {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Optional<Path> BINARY =
            Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                    .map(dir -> Path.of(dir, "prometheus"))
                    .filter(Files::isExecutable)
                    .findFirst();
    @TempDir static Path temp;
    private RunningJob job;
    private MetricsHttpServer endpoint;
    private ChildProcess prometheus;
    private URI prometheusUri;
    private RunnerHttpMetricsSource runner;
    private PrometheusMetricsSource source;

    @BeforeAll
    void startJobAndPrometheus() throws Exception {
        assumeTrue(
                BINARY.isPresent(),
                "Prometheus is not on the PATH; apt-get install -y prometheus to run this test");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        job =
                InProcessMetricsSourceTest.chain("chain")
                        .start(JobConfig.defaults().withMeterRegistry(registry));
        endpoint = MetricsHttpServer.start("127.0.0.1", 0, registry);
        JobRunnerApi api = new JobRunnerApi(Clock.systemUTC());
        api.attach(job);
        api.serveOn(endpoint);
        startPrometheus(endpoint.port());
        runner =
                new RunnerHttpMetricsSource(
                        URI.create("http://127.0.0.1:" + endpoint.port()), TIMEOUT);
        source =
                new PrometheusMetricsSource(
                        prometheusUri, "chain", runner::topology, Clock.systemUTC(), TIMEOUT);
        Await.value(
                Duration.ofSeconds(40),
                "Prometheus to hold every instance's counters",
                () -> {
                    prometheus.assertAlive();
                    try {
                        MetricsSample s = source.sample();
                        return s.instances().size() == 4 ? Optional.of(s) : Optional.empty();
                    } catch (RuntimeException notYet) {
                        return Optional.empty();
                    }
                });
    }

    private void startPrometheus(int targetPort) throws Exception {
        int port = Ports.free();
        Path config = temp.resolve("prometheus.yml");
        Files.writeString(
                config,
                """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: flowscale
                    honor_labels: true
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """
                        .formatted(targetPort));
        prometheus =
                ChildProcess.start(
                        List.of(
                                BINARY.orElseThrow().toString(),
                                "--config.file=" + config,
                                "--storage.tsdb.path=" + temp.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + port),
                        temp.resolve("prometheus.log"));
        prometheusUri = URI.create("http://127.0.0.1:" + port);
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        Await.value(
                Duration.ofSeconds(30),
                "Prometheus to be ready",
                () -> {
                    prometheus.assertAlive();
                    try {
                        HttpResponse<Void> r =
                                http.send(
                                        HttpRequest.newBuilder(prometheusUri.resolve("/-/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding());
                        return r.statusCode() == 200 ? Optional.of(true) : Optional.empty();
                    } catch (Exception notYet) {
                        return Optional.empty();
                    }
                });
    }

    @AfterAll
    void stopAll() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
        if (job != null) {
            job.close();
        }
    }

    @Override
    protected MetricsSource source() {
        return source;
    }

    /** Prometheus scrapes once a second; a window must span several scrapes. */
    @Override
    protected Duration windowLength() {
        return Duration.ofMillis(2500);
    }

    @Test
    void aJobPrometheusHasNoDataForLeavesNoWindowAndSaysWhy() {
        PrometheusMetricsSource unknown =
                new PrometheusMetricsSource(
                        prometheusUri, "nosuchjob", runner::topology, Clock.systemUTC(), TIMEOUT);
        WindowedMetricsProvider provider =
                new WindowedMetricsProvider(
                        unknown,
                        new WindowSettings(Duration.ofSeconds(1), Duration.ZERO),
                        List.of());

        WindowStatus status = provider.poll();

        assertThat(provider.currentWindow()).isEmpty();
        assertThat(status.reasons())
                .singleElement()
                .asString()
                .contains("no flowscale_* series for job 'nosuchjob'");
    }
}
