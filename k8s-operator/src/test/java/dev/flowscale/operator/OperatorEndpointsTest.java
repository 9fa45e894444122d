package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's own endpoints over real HTTP, as Prometheus and the kubelet's probes call them.
 */
class OperatorEndpointsTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean informersHealthy = new AtomicBoolean(true);
    private OperatorEndpoints endpoints;

    @BeforeEach
    void start() {
        endpoints =
                OperatorEndpoints.start(
                        0,
                        registry,
                        started::get,
                        new OperatorLiveness(started::get, informersHealthy::get));
    }

    @AfterEach
    void stop() {
        endpoints.close();
    }

    @Test
    void metricsServesTheRegistryInPrometheusTextFormat() throws Exception {
        Counter.builder(MetricName.CONTROLLER_DECISIONS.micrometer())
                .tag("job", "jobs/wc")
                .register(registry)
                .increment();

        HttpResponse<String> metrics = get("GET", "/metrics");

        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
        assertThat(metrics.body())
                .contains(MetricName.CONTROLLER_DECISIONS.prometheus() + "{job=\"jobs/wc\"} 1.0");
    }

    @Test
    void readyzAnswers503UntilTheControllersHaveStartedWhileHealthIsUpAsTheyStart()
            throws Exception {
        assertThat(get("GET", "/readyz").statusCode()).isEqualTo(503);
        assertThat(get("GET", "/health").body()).isEqualTo("{\"status\":\"UP\"}");

        started.set(true);

        assertThat(get("GET", "/readyz").statusCode()).isEqualTo(200);
        assertThat(get("HEAD", "/readyz").statusCode()).isEqualTo(200);
        assertThat(get("GET", "/health").statusCode()).isEqualTo(200);
    }

    @Test
    void healthAnswers503OnceAnInformerHasDied() throws Exception {
        started.set(true);
        assertThat(get("GET", "/health").statusCode()).isEqualTo(200);

        informersHealthy.set(false);

        HttpResponse<String> health = get("GET", "/health");
        assertThat(health.statusCode()).isEqualTo(503);
        assertThat(health.body()).isEqualTo("{\"status\":\"DOWN\"}");
    }

    @Test
    void healthAnswers503OnceTheOperatorHasStoppedAfterRunning() throws Exception {
        started.set(true);
        assertThat(get("GET", "/health").statusCode()).isEqualTo(200);

        started.set(false);

        assertThat(get("GET", "/health").statusCode()).isEqualTo(503);
    }

    @Test
    void otherPathsAnswer404AndOtherMethods405() throws Exception {
        HttpResponse<String> unknown = get("GET", "/metrics/foo");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("/metrics/foo");

        HttpResponse<String> post = get("POST", "/metrics");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    private HttpResponse<String> get(String method, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
