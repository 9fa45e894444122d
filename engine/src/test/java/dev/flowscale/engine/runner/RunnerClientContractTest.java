package dev.flowscale.engine.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.MetricsView;
import dev.flowscale.runner.api.Readiness;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.runner.api.RunnerApiException;
import dev.flowscale.runner.api.RunnerClient;
import dev.flowscale.runner.api.SavepointView;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner API's one client ({@link RunnerClient}, module runner-api) against the engine's real
 * runner server: every typed call answers what the server serves, and each error the contract names
 * reaches the caller as a {@link RunnerApiException} with the runner's status.
 */
class RunnerClientContractTest {
    private static final String TOKEN = "s3cret";
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    @TempDir Path storage;
    private ServedJob served;
    private RunnerClient client;

    @BeforeEach
    void serveAJob() {
        JobBuilder builder = JobBuilder.named("clientjob");
        builder.source("src", Sources.generator(RateProfile.constant(2000), seq -> seq))
                .map("double", x -> x * 2)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        served = ServedJob.start(builder, storage, TOKEN, TIMEOUT);
        client = RunnerClient.connect(served.uri(""), Duration.ofSeconds(5), TOKEN);
    }

    @AfterEach
    void stop() throws Exception {
        served.close();
    }

    @Test
    void theJobTheCountersAndTheReadinessAreReadAsTheContractsRecords() {
        JobView job = client.job();
        MetricsView metrics = client.metrics();

        assertThat(job.name()).isEqualTo("clientjob");
        assertThat(job.running()).isTrue();
        assertThat(job.parallelism())
                .containsExactly(Map.entry("src", 1), Map.entry("double", 2), Map.entry("sink", 1));
        assertThat(job.edges()).extracting(JobView.EdgeView::from).containsExactly("src", "double");
        assertThat(metrics.runId()).isEqualTo(job.runId());
        assertThat(metrics.parallelism()).isEqualTo(job.parallelism());
        assertThat(metrics.instances())
                .extracting(MetricsView.InstanceCounts::operatorId)
                .containsExactly("src", "double", "double", "sink");
        assertThat(client.readiness()).isEqualTo(Readiness.running());
    }

    @Test
    void aSavepointIsTakenWhileTheJobRunsAndIsThenTheLatestSnapshot() {
        assertThat(client.latestSnapshot()).as("404 before any snapshot").isEmpty();

        SavepointView savepoint = client.savepoint(Duration.ofSeconds(10));

        assertThat(Path.of(savepoint.savepoint())).isDirectory();
        assertThat(client.job().running()).isTrue();
        assertThat(client.latestSnapshot())
                .hasValueSatisfying(s -> assertThat(s.snapshot()).isEqualTo(savepoint.savepoint()));
    }

    @Test
    void aRescaleRunsTheJobAtTheNewParallelismInTheSameProcess() {
        RescaleView rescaled = client.rescale(Map.of("double", 3), TIMEOUT);

        assertThat(rescaled.path()).isEqualTo(RescaleView.IN_PLACE);
        assertThat(rescaled.before()).containsEntry("double", 2);
        assertThat(rescaled.after()).containsEntry("double", 3);
        assertThat(rescaled.downtime()).isPositive();
        assertThat(client.job().parallelism()).containsEntry("double", 3);
    }

    @Test
    void aStoppedJobAnswersItsSavepointAgainAndIsNoLongerReady() {
        SavepointView stopped = client.stopWithSavepoint(Duration.ofSeconds(10));

        assertThat(client.stopWithSavepoint(Duration.ofSeconds(10)))
                .as("stopping is idempotent")
                .isEqualTo(stopped);
        Readiness readiness = client.readiness();
        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.status()).contains("STOPPED").contains("not RUNNING");
    }

    @Test
    void aRefusedRequestCarriesTheRunnersStatusAndMessage() {
        RunnerClient withoutToken =
                RunnerClient.connect(served.uri(""), Duration.ofSeconds(5), null);

        assertThatThrownBy(() -> withoutToken.savepoint(Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(
                        RunnerApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessageContaining("POST " + served.uri("/api/v1/savepoint"))
                .hasMessageContaining("Bearer");
        assertThatThrownBy(() -> client.rescale(Map.of("nosuch", 2), TIMEOUT))
                .isInstanceOfSatisfying(
                        RunnerApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("nosuch");
        assertThat(withoutToken.job().name()).as("reads need no token").isEqualTo("clientjob");
    }

    @Test
    void aRunnerWithoutAJobAnswers503AndAnUnreachableOneNoAnswer() throws Exception {
        try (MetricsHttpServer empty =
                MetricsHttpServer.start(
                        "127.0.0.1", 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            new JobRunnerApi(Clock.systemUTC()).serveOn(empty);
            RunnerClient starting =
                    RunnerClient.connect(
                            URI.create("http://127.0.0.1:" + empty.port()),
                            Duration.ofSeconds(5),
                            null);
            assertThatThrownBy(starting::job)
                    .isInstanceOfSatisfying(
                            RunnerApiException.class, e -> assertThat(e.status()).isEqualTo(503))
                    .hasMessageContaining("no job is attached");
            assertThat(starting.readiness().ready()).isFalse();
        }
        RunnerClient nobody =
                RunnerClient.connect(
                        URI.create("http://127.0.0.1:" + closedPort()),
                        Duration.ofSeconds(2),
                        null);
        assertThatThrownBy(nobody::job)
                .isInstanceOfSatisfying(
                        RunnerApiException.class,
                        e -> assertThat(e.status()).isEqualTo(RunnerApiException.NO_ANSWER))
                .hasMessageContaining("--metrics-port");
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
