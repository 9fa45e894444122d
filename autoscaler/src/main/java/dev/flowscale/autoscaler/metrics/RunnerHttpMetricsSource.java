package dev.flowscale.autoscaler.metrics;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.MetricsView;
import dev.flowscale.runner.api.RunnerApiException;
import dev.flowscale.runner.api.RunnerClient;
import dev.flowscale.runner.api.RunnerPaths;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Samples a job runner process over its JSON API ({@code GET /api/v1/metrics}, and {@code GET
 * /api/v1/job} for the topology whenever the run id changes) with the runner API's {@link
 * RunnerClient}.
 */
public final class RunnerHttpMetricsSource implements MetricsSource {
    private static final String FIX =
            "check that the job runs with --metrics-port and that the URL is right";

    private final RunnerClient client;
    private JobView job;

    /**
     * @param base the runner's address, e.g. {@code http://host:9249}
     * @param timeout connect and request timeout
     */
    public RunnerHttpMetricsSource(URI base, Duration timeout) {
        this(base, timeout, null);
    }

    /**
     * @param token sent as {@code Authorization: Bearer <token>} (the runner's
     *     FLOWSCALE_RUNNER_TOKEN; its reads are open today, so this only matters if they are
     *     closed); null: none
     */
    public RunnerHttpMetricsSource(URI base, Duration timeout, String token) {
        this.client =
                RunnerClient.connect(
                        Objects.requireNonNull(base, "job runner URL"),
                        Objects.requireNonNull(timeout, "HTTP timeout"),
                        token);
    }

    @Override
    public synchronized MetricsSample sample() {
        MetricsView metrics = call(client::metrics);
        if (metrics.runId() == null
                || metrics.instances() == null
                || metrics.parallelism() == null) {
            throw new CollectorException(
                    "GET "
                            + client.base()
                            + RunnerPaths.METRICS
                            + " answered without runId, parallelism"
                            + " or instances; "
                            + FIX);
        }
        if (job == null || !job.runId().equals(metrics.runId())) {
            job = fetchJob();
        }
        if (!job.runId().equals(metrics.runId())) {
            throw new CollectorException(
                    "job runner "
                            + client.base()
                            + " restarted the job while it was sampled (run "
                            + metrics.runId()
                            + " vs "
                            + job.runId()
                            + "); the next sample will be consistent");
        }
        return new MetricsSample(
                RunnerModel.topology(job).withParallelism(metrics.parallelism()),
                Instant.ofEpochMilli(metrics.timeMillis()),
                metrics.runId(),
                metrics.instances());
    }

    /** The job's topology as the runner reports it now (also a topology source for Prometheus). */
    public JobTopology topology() {
        return RunnerModel.topology(fetchJob());
    }

    private JobView fetchJob() {
        JobView view = call(client::job);
        if (view.runId() == null
                || view.operators() == null
                || view.edges() == null
                || view.name() == null) {
            throw new CollectorException(
                    "GET "
                            + client.base()
                            + RunnerPaths.JOB
                            + " answered a job without name, runId,"
                            + " operators or edges; "
                            + FIX);
        }
        return view;
    }

    private static <T> T call(Supplier<T> request) {
        try {
            return request.get();
        } catch (RunnerApiException e) {
            throw new CollectorException(e.getMessage() + "; " + FIX, e);
        }
    }

    @Override
    public String describe() {
        return "job runner " + client.base() + "/";
    }
}
