package dev.flowscale.collector.source;

import dev.flowscale.collector.CollectorException;
import dev.flowscale.collector.api.MetricsSample;
import dev.flowscale.collector.api.MetricsSource;
import dev.flowscale.engine.runner.JobView;
import dev.flowscale.engine.runner.MetricsView;
import dev.flowscale.policy.api.JobTopology;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Samples a job runner process over its JSON API ({@code GET /api/v1/metrics}, and
 * {@code GET /api/v1/job} for the topology whenever the run id changes).
 */
public final class RunnerHttpMetricsSource implements MetricsSource {
    private static final String FIX = "check that the job runs with --metrics-port and that the URL is right";

    private final URI base;
    private final JsonHttp http;
    private JobView job;

    /**
     * @param base    the runner's address, e.g. {@code http://host:9249}
     * @param timeout connect and request timeout
     */
    public RunnerHttpMetricsSource(URI base, Duration timeout) {
        this(base, timeout, null);
    }

    /**
     * @param token sent as {@code Authorization: Bearer <token>} (the runner's FLOWSCALE_RUNNER_TOKEN; its
     *              reads are open today, so this only matters if they are closed); null: none
     */
    public RunnerHttpMetricsSource(URI base, Duration timeout, String token) {
        Objects.requireNonNull(base, "job runner URL");
        this.base = URI.create(base.toString().replaceAll("/+$", "") + "/");
        this.http = new JsonHttp(timeout, token);
    }

    @Override
    public synchronized MetricsSample sample() {
        URI uri = base.resolve("api/v1/metrics");
        MetricsView metrics = http.convert(uri, http.get(uri, FIX), MetricsView.class);
        if (metrics.runId() == null || metrics.instances() == null || metrics.parallelism() == null) {
            throw new CollectorException("GET " + uri + " answered without runId, parallelism or instances; " + FIX);
        }
        if (job == null || !job.runId().equals(metrics.runId())) {
            job = fetchJob();
        }
        if (!job.runId().equals(metrics.runId())) {
            throw new CollectorException("job runner " + base + " restarted the job while it was sampled (run "
                    + metrics.runId() + " vs " + job.runId() + "); the next sample will be consistent");
        }
        return new MetricsSample(EngineModel.topology(job).withParallelism(metrics.parallelism()),
                Instant.ofEpochMilli(metrics.timeMillis()),
                metrics.runId(), EngineModel.counters(metrics.instances()));
    }

    /** The job's topology as the runner reports it now (also a topology source for Prometheus). */
    public JobTopology topology() {
        return EngineModel.topology(fetchJob());
    }

    private JobView fetchJob() {
        URI uri = base.resolve("api/v1/job");
        JobView view = http.convert(uri, http.get(uri, FIX), JobView.class);
        if (view.runId() == null || view.operators() == null || view.edges() == null || view.name() == null) {
            throw new CollectorException("GET " + uri + " answered a job without name, runId, operators or edges; "
                    + FIX);
        }
        return view;
    }

    @Override
    public String describe() {
        return "job runner " + base;
    }
}
