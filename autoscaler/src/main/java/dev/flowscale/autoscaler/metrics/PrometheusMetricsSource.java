package dev.flowscale.autoscaler.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Samples a job through a Prometheus server's query API: one instant query at the sample time reads
 * every {@code flowscale_*} counter of the job, so all values come from the same scrapes.
 * Prometheus knows no edges, so the topology comes from configuration or the job runner; the
 * parallelism Prometheus reports ({@code flowscale_operator_parallelism}) overrides the given one.
 * Prometheus must keep the engine's {@code job} and {@code instance} labels (scrape with {@code
 * honor_labels: true}), or pass {@link Labels#EXPORTED}. Its counters carry no per-key-group
 * counts: the runner does not export a series per key group (docs/metrics.md, "Per-key-group
 * rates").
 */
public final class PrometheusMetricsSource implements MetricsSource {
    private static final String FIX =
            "check the Prometheus URL and that it scrapes the job's /metrics endpoint";
    private static final String NAMES =
            PromSeries.READ.stream()
                    .map(MetricName::prometheus)
                    .collect(Collectors.joining("|", "(", ")"));

    /** The label names under which Prometheus stores the engine's job and instance labels. */
    public record Labels(String job, String instance) {
        public static final Labels HONORED = new Labels("job", "instance");
        public static final Labels EXPORTED = new Labels("exported_job", "exported_instance");
    }

    private final URI base;
    private final String jobName;
    private final Supplier<JobTopology> topology;
    private final Clock clock;
    private final Labels labels;
    private final JsonHttp http;

    public PrometheusMetricsSource(
            URI base,
            String jobName,
            Supplier<JobTopology> topology,
            Clock clock,
            Duration timeout,
            Labels labels) {
        this.base =
                URI.create(
                        Objects.requireNonNull(base, "Prometheus URL")
                                        .toString()
                                        .replaceAll("/+$", "")
                                + "/");
        this.jobName = Objects.requireNonNull(jobName, "Prometheus source job name");
        this.topology = Objects.requireNonNull(topology, "Prometheus source topology supplier");
        this.clock = Objects.requireNonNull(clock, "Prometheus source clock");
        this.labels = Objects.requireNonNull(labels, "Prometheus source labels");
        this.http = new JsonHttp(timeout);
    }

    /** With the engine's labels kept as they are ({@code honor_labels: true}). */
    public PrometheusMetricsSource(
            URI base,
            String jobName,
            Supplier<JobTopology> topology,
            Clock clock,
            Duration timeout) {
        this(base, jobName, topology, clock, timeout, Labels.HONORED);
    }

    @Override
    public MetricsSample sample() {
        Instant time = clock.instant();
        PromSeries series = PromSeries.parse(query(time), labels, "Prometheus " + base);
        if (series.isEmpty()) {
            throw new CollectorException(
                    "Prometheus "
                            + base
                            + " has no flowscale_* series for job '"
                            + jobName
                            + "' at "
                            + time
                            + "; check that it scrapes the job (honor_labels: true) and that the job runs");
        }
        JobTopology current = topology.get().withParallelism(series.parallelism());
        List<InstanceCounts> instances = new ArrayList<>();
        current.operators().forEach(op -> instances.addAll(series.countersOf(op.id())));
        return new MetricsSample(current, time, runId(current), instances);
    }

    private JsonNode query(Instant time) {
        String promql =
                "{__name__=~\""
                        + NAMES
                        + "\","
                        + labels.job()
                        + "=\""
                        + jobName.replace("\"", "\\\"")
                        + "\"}";
        URI uri =
                base.resolve(
                        "api/v1/query?query="
                                + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                                + "&time="
                                + BigDecimal.valueOf(time.toEpochMilli(), 3).toPlainString());
        JsonNode body = http.get(uri, FIX);
        if (!"success".equals(body.path("status").asText())
                || !body.path("data").path("result").isArray()) {
            throw new CollectorException(
                    "Prometheus query "
                            + uri
                            + " failed: "
                            + body.path("error").asText(body.toString())
                            + "; "
                            + FIX);
        }
        return body.path("data").path("result");
    }

    /**
     * Prometheus has no run id: the parallelism stands in for it, so a rescale starts a new run; a
     * restart at the same parallelism shows as counters going backwards.
     */
    private String runId(JobTopology current) {
        Map<String, Integer> sorted = new TreeMap<>(current.parallelism());
        return "prometheus:" + jobName + ":" + sorted;
    }

    @Override
    public String describe() {
        return "Prometheus " + base + " (job '" + jobName + "')";
    }
}
