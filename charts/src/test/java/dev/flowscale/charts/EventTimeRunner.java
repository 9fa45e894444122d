package dev.flowscale.charts;

import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine;

/**
 * A second job beside the autoscaled word count, for the panel that needs event time (the word
 * count has none): the built-in sensor alert job at 20 readings per second, with latency markers
 * every 500 ms, its meters served over HTTP as the runner serves them (a Prometheus registry behind
 * {@link MetricsHttpServer}). It runs in this JVM and is not autoscaled: a second runner process
 * would cost a JVM start on a loaded machine for nothing the first runner does not prove.
 */
final class EventTimeRunner implements AutoCloseable {
    static final String JOB = "sensor-alerts";
    private static final Duration MARKERS = Duration.ofMillis(500);

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final RunningJob job;
    private final MetricsHttpServer endpoint;

    EventTimeRunner() {
        JobOptions options = CommandLine.populateCommand(new JobOptions(), "--rate", "20");
        job =
                RunningJob.start(
                        BuiltinJobs.build(JOB, options, false),
                        JobConfig.defaults()
                                .withMeterRegistry(registry)
                                .withLatencyTracking(MARKERS));
        endpoint = MetricsHttpServer.start("127.0.0.1", 0, registry);
    }

    /** Where the job's metrics are served. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + endpoint.port());
    }

    @Override
    public void close() throws Exception {
        endpoint.close();
        job.close();
    }
}
