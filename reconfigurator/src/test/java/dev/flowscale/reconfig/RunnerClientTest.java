package dev.flowscale.reconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runner.JobControlApi;
import dev.flowscale.engine.runner.JobRunnerApi;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner client against the runner's real HTTP server with a control token set. */
class RunnerClientTest {
    @TempDir
    Path storage;
    private RunningJob job;
    private MetricsHttpServer server;
    private URI runner;

    @BeforeEach
    void startGuardedRunnerApi() {
        JobBuilder builder = JobBuilder.named("guarded");
        builder.source("src", Sources.generator(RateProfile.constant(1000), seq -> seq)).sink("sink", Sinks.counting());
        job = builder.start(JobConfig.defaults().withCheckpointing(CheckpointConfig.savepointsOnly(storage)));
        server = MetricsHttpServer.start("127.0.0.1", 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .requireBearerToken("tok-42");
        new JobRunnerApi(Clock.systemUTC()).serveOn(server).attach(job);
        new JobControlApi(job, Duration.ofSeconds(20)).serveOn(server);
        runner = URI.create("http://127.0.0.1:" + server.port());
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        job.close();
    }

    @Test
    void withoutTheTokenTheStopIsRefused401AndTheJobRuns() {
        assertThatThrownBy(() -> new RunnerClient().stopWithSavepoint(runner, Duration.ofSeconds(20)))
                .isInstanceOf(ReconfigException.class).hasMessageContaining("answered 401");
        assertThat(job.status()).isEqualTo(RunningJob.Status.RUNNING);
    }

    @Test
    void withTheTokenTheClientReadsTheJobAndStopsItWithASavepoint() {
        RunnerClient client = new RunnerClient("tok-42");
        assertThat(client.job(runner).status()).isEqualTo("RUNNING");

        Path savepoint = client.stopWithSavepoint(runner, Duration.ofSeconds(20));

        assertThat(savepoint.resolve("_metadata")).isRegularFile();
    }
}
