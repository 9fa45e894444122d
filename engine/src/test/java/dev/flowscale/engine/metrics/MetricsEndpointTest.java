package dev.flowscale.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.testsupport.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Scrapes a running job's metrics endpoint over HTTP, as Prometheus would. */
class MetricsEndpointTest {
    private static final List<MetricName> INSTANCE_METRICS =
            List.of(
                    MetricName.RECORDS_IN,
                    MetricName.RECORDS_OUT,
                    MetricName.USEFUL_TIME,
                    MetricName.WAIT_INPUT_TIME,
                    MetricName.BACKPRESSURE_TIME,
                    MetricName.OBSERVED_TIME,
                    MetricName.TRUE_PROCESSING_RATE,
                    MetricName.TRUE_OUTPUT_RATE,
                    MetricName.OBSERVED_PROCESSING_RATE,
                    MetricName.OBSERVED_OUTPUT_RATE,
                    MetricName.UTILIZATION,
                    MetricName.BACKPRESSURE_RATIO);
    private static final Pattern SERIES =
            Pattern.compile("^(flowscale_\\w+?)[{ ]", Pattern.MULTILINE);

    private static final String SINK_RECORDS_IN =
            "flowscale_records_in_total\\{instance=\"0\",job=\"scraped\",operator=\"sink\"\\}";
    private static final String SINK_TRUE_RATE =
            "flowscale_true_processing_rate_records_per_second\\{instance=\"0\",job=\"scraped\",operator=\"sink\"\\}";

    @Test
    void everyFlowscaleMetricIsServedWithJobOperatorAndInstanceLabels() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobBuilder job = JobBuilder.named("scraped");
        job.source("src", Sources.generator(RateProfile.constant(2000), seq -> seq))
                .map("double", x -> x * 2)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        JobConfig config =
                JobConfig.defaults()
                        .withMeterRegistry(registry)
                        .withRateWindow(Duration.ofMillis(200));
        try (RunningJob running = job.start(config);
                MetricsHttpServer server = MetricsHttpServer.start("127.0.0.1", 0, registry)) {
            HttpResponse<String> response =
                    Await.until(
                            Duration.ofSeconds(20),
                            "a scrape with the sink's records and true processing rate",
                            () -> scrape(server),
                            r ->
                                    parsed(r.body(), SINK_RECORDS_IN).orElse(0.0) > 100
                                            && parsed(r.body(), SINK_TRUE_RATE).orElse(0.0) > 2000);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
            String body = response.body();
            assertThat(SERIES.matcher(body).results().map(m -> m.group(1)).distinct())
                    .as("every series the runner serves is a MetricName the runner exports")
                    .allSatisfy(
                            series ->
                                    assertThat(MetricName.ofSeries(series))
                                            .hasValueSatisfying(
                                                    name ->
                                                            assertThat(name.exporter())
                                                                    .isEqualTo(
                                                                            MetricName.Exporter
                                                                                    .RUNNER)));
            for (String metric : INSTANCE_METRICS.stream().map(MetricName::prometheus).toList()) {
                for (String[] instance :
                        new String[][] {
                            {"src", "0"}, {"double", "0"}, {"double", "1"}, {"sink", "0"}
                        }) {
                    assertThat(body)
                            .as(metric + " for " + String.join("/", instance))
                            .containsPattern(
                                    Pattern.quote(metric)
                                            + "\\{instance=\""
                                            + instance[1]
                                            + "\",job=\"scraped\",operator=\""
                                            + instance[0]
                                            + "\"\\} ");
                }
            }
            assertThat(body)
                    .containsPattern(
                            MetricName.SOURCE_BACKLOG.prometheus()
                                    + "\\{instance=\"0\",job=\"scraped\",operator=\"src\"\\}");
            assertThat(body)
                    .containsPattern(
                            "flowscale_operator_parallelism\\{job=\"scraped\",operator=\"double\"\\} 2");
            assertThat(parsed(body, SINK_RECORDS_IN))
                    .as(SINK_RECORDS_IN)
                    .hasValueSatisfying(v -> assertThat(v).isGreaterThan(100));
            assertThat(parsed(body, SINK_TRUE_RATE))
                    .as(SINK_TRUE_RATE)
                    .hasValueSatisfying(v -> assertThat(v).isGreaterThan(2000));
        }
        assertThat(registry.scrape())
                .as("meters removed when the job is closed")
                .doesNotContain("flowscale_records_in_total");
    }

    private static final String SINK_MARKERS =
            "flowscale_marker_latency_seconds_count\\{instance=\"0\",job=\"timed\",operator=\"sink\",source=\"src\"\\}";
    private static final String MAP_LAG =
            "flowscale_event_time_lag_seconds\\{instance=\"0\",job=\"timed\",operator=\"double\"\\}";

    @Test
    void anEventTimeJobWithLatencyTrackingServesLatencyHistogramsPerSourceAndItsLag()
            throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobBuilder job = JobBuilder.named("timed");
        job.source(
                        "src",
                        Sources.generator(RateProfile.constant(500), seq -> seq),
                        WatermarkStrategy.forMonotonousTimestamps(
                                (Long seq) -> System.currentTimeMillis()))
                .map("double", x -> x * 2)
                .sink("sink", Sinks.counting());
        JobConfig config =
                JobConfig.defaults()
                        .withMeterRegistry(registry)
                        .withLatencyTracking(Duration.ofMillis(20));
        try (RunningJob running = job.start(config);
                MetricsHttpServer server = MetricsHttpServer.start("127.0.0.1", 0, registry)) {
            String body =
                    Await.until(
                                    Duration.ofSeconds(20),
                                    "a scrape with markers at the sink and a finite lag",
                                    () -> scrape(server),
                                    r ->
                                            parsed(r.body(), SINK_MARKERS).orElse(0.0) >= 5
                                                    && parsed(r.body(), MAP_LAG).isPresent())
                            .body();

            assertThat(body)
                    .as("a bucket series of the histogram")
                    .containsPattern(
                            "flowscale_marker_latency_seconds_bucket\\{instance=\"0\",job=\"timed\","
                                    + "operator=\"double\",source=\"src\",le=\"0\\.001\"\\} ");
            assertThat(parsed(body, MAP_LAG))
                    .as("lag of a watermark that follows the wall clock")
                    .hasValueSatisfying(lag -> assertThat(lag).isBetween(0.0, 10.0));
        }
    }

    private static HttpResponse<String> scrape(MetricsHttpServer server) {
        try {
            return HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    "http://127.0.0.1:"
                                                            + server.port()
                                                            + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while scraping", e);
        }
    }

    private static Optional<Double> parsed(String body, String series) {
        Matcher m = Pattern.compile(series + " ([0-9.eE+-]+)").matcher(body);
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }
}
