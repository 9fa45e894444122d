package dev.flowscale.engine.runner;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A real job served by the runner's HTTP server with both APIs, as the runner process serves it.
 */
record ServedJob(RunningJob job, MetricsHttpServer server) implements AutoCloseable {

    /** {@code token}: the bearer token POSTs need; null: none. */
    static ServedJob start(
            JobBuilder builder, Path storage, String token, Duration controlTimeout) {
        RunningJob job =
                builder.start(
                        JobConfig.defaults()
                                .withCheckpointing(CheckpointConfig.savepointsOnly(storage)));
        MetricsHttpServer server =
                MetricsHttpServer.start(
                                "127.0.0.1",
                                0,
                                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                        .requireBearerToken(token);
        new JobRunnerApi(Clock.systemUTC()).serveOn(server).attach(job);
        RunnerRoutes.serveControl(server, job, controlTimeout);
        return new ServedJob(job, server);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Override
    public void close() throws Exception {
        server.close();
        job.close();
    }
}
