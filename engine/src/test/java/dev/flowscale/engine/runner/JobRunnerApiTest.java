package dev.flowscale.engine.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.MetricsView;
import dev.flowscale.runner.api.RunnerPaths;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reads a running job through the JSON API over real HTTP. */
class JobRunnerApiTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private RunningJob job;
    private MetricsHttpServer server;
    private JobRunnerApi api;

    @BeforeEach
    void startJob() {
        JobBuilder builder = JobBuilder.named("apijob").keyGroups(64);
        builder.source("src", Sources.generator(RateProfile.constant(5000), seq -> seq))
                .map("double", x -> x * 2)
                .parallelism(2)
                .sink("sink", Sinks.counting());
        job = builder.start(JobConfig.defaults());
        server =
                MetricsHttpServer.start(
                        "127.0.0.1", 0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        api = new JobRunnerApi(Clock.systemUTC());
        api.serveOn(server);
    }

    @AfterEach
    void stopJob() throws Exception {
        server.close();
        job.close();
    }

    @Test
    void jobDescribesOperatorsEdgesStatusAndRunId() throws Exception {
        String runId = api.attach(job);
        JsonNode body = get("/api/v1/job", 200);
        assertThat(body.get("name").asText()).isEqualTo("apijob");
        assertThat(body.get("runId").asText()).startsWith(runId + "/").endsWith("-run-1");
        assertThat(body.get("status").asText()).isEqualTo("RUNNING");
        assertThat(body.get("keyGroups").asInt()).isEqualTo(64);
        assertThat(body.get("operators")).hasSize(3);
        assertThat(body.get("operators").get(1).get("id").asText()).isEqualTo("double");
        assertThat(body.get("operators").get(1).get("kind").asText()).isEqualTo("MAP");
        assertThat(body.get("operators").get(1).get("parallelism").asInt()).isEqualTo(2);
        assertThat(body.get("edges").get(0).get("from").asText()).isEqualTo("src");
        assertThat(body.get("edges").get(0).get("partitioning").asText()).isNotBlank();
    }

    @Test
    void metricsReturnCumulativeCountersPerInstanceWithWallClockTime() throws Exception {
        String runId = api.attach(job);
        long before = System.currentTimeMillis();
        JsonNode body = get("/api/v1/metrics", 200);
        assertThat(body.get("runId").asText()).startsWith(runId + "/").endsWith("-run-1");
        assertThat(body.get("timeMillis").asLong()).isBetween(before, System.currentTimeMillis());
        assertThat(body.get("instances")).hasSize(4);
        JsonNode first = body.get("instances").get(0);
        for (String field :
                new String[] {
                    "operatorId",
                    "instance",
                    "recordsIn",
                    "recordsOut",
                    "usefulNanos",
                    "waitInputNanos",
                    "backpressureNanos",
                    "observedNanos",
                    "backlog",
                    "finished"
                }) {
            assertThat(first.has(field)).as(field).isTrue();
        }
        MetricsView parsed = mapper.treeToValue(body, MetricsView.class);
        assertThat(parsed.parallelism()).containsEntry("double", 2);
    }

    @Test
    void everyInstanceReportsItsThreadsCpuTimeAndItsWaitForACoreOnLinux() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.exists(java.nio.file.Path.of("/proc/thread-self/schedstat")),
                "the run delay is read from Linux schedstat");
        api.attach(job);
        long deadline = System.nanoTime() + 30_000_000_000L;
        MetricsView parsed = mapper.treeToValue(get("/api/v1/metrics", 200), MetricsView.class);
        // each thread reads its kernel id as it starts: poll until all have
        while (parsed.instances().stream().anyMatch(i -> i.coreWaitNanos() == null)
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            parsed = mapper.treeToValue(get("/api/v1/metrics", 200), MetricsView.class);
        }
        assertThat(parsed.instances())
                .allSatisfy(
                        i -> {
                            assertThat(i.cpuNanos()).as("CPU time").isNotNull().isNotNegative();
                            assertThat(i.coreWaitNanos())
                                    .as("wait for a core")
                                    .isNotNull()
                                    .isNotNegative();
                        });
    }

    @Test
    void aNewlyAttachedJobGetsANewRunId() {
        assertThat(api.attach(job)).isNotEqualTo(api.attach(job));
    }

    @Test
    void unknownPathsAnswer404AndOtherMethods405WithAJsonError() throws Exception {
        api.attach(job);
        assertThat(get("/api/v1/nothing", 404).get("error").asText())
                .contains("/api/v1/nothing")
                .contains("GET");
        HttpResponse<String> post =
                http.send(
                        HttpRequest.newBuilder(uri("/api/v1/job"))
                                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD, OPTIONS");
        assertThat(mapper.readTree(post.body()).get("error").asText()).contains("use GET");
    }

    @Test
    void readyAnswers200WhileTheJobRunsAnd503OnceItHasStopped() throws Exception {
        api.attach(job);
        assertThat(get(RunnerPaths.READY, 200).get("status").asText()).isEqualTo("RUNNING");
        job.stop();
        assertThat(job.await(java.time.Duration.ofSeconds(20))).isTrue();
        assertThat(get(RunnerPaths.READY, 503).get("error").asText())
                .contains("apijob")
                .contains("not RUNNING");
    }

    @Test
    void beforeAnyJobIsAttachedTheApiAnswers503() throws Exception {
        assertThat(get("/api/v1/metrics", 503).get("error").asText())
                .contains("no job is attached");
    }

    private JsonNode get(String path, int expectedStatus) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(uri(path)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        return mapper.readTree(response.body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
