package dev.flowscale.engine.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.runner.api.RunnerPaths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Control work never blocks probes, and concurrent stops get one answer. The job's map blocks 20 ms
 * per record behind a full input channel, so a savepoint's barrier waits seconds for the records
 * queued before it: long enough to probe while it is in progress.
 */
class RunnerApiConcurrencyTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper mapper = new ObjectMapper();
    @TempDir Path storage;
    private ServedJob served;

    @BeforeEach
    void startSlowJob() {
        JobBuilder builder = JobBuilder.named("slow");
        builder.source("src", Sources.generator(RateProfile.constant(5000), seq -> seq))
                .map("slow", x -> x)
                .sink("sink", Sinks.counting());
        builder.cost("slow", SyntheticCost.blocking(Duration.ofMillis(20)));
        served = ServedJob.start(builder, storage, null, Duration.ofSeconds(120));
    }

    @AfterEach
    void stop() throws Exception {
        served.close();
    }

    @Test
    void probesAndScrapesAnswerWhileSavepointsAreInProgress() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> savepoints =
                List.of(
                        post(RunnerPaths.SAVEPOINT),
                        post(RunnerPaths.SAVEPOINT),
                        post(RunnerPaths.SAVEPOINT),
                        post(RunnerPaths.SAVEPOINT),
                        post(RunnerPaths.SAVEPOINT));
        awaitSavepointInProgress();
        for (String path : List.of(RunnerPaths.READY, "/health", "/metrics", RunnerPaths.JOB)) {
            assertThat(get(path).statusCode()).as(path).isEqualTo(200);
        }
        assertThat(savepoints.get(savepoints.size() - 1))
                .as(
                        "the probes were answered while savepoints were still queued behind one another")
                .isNotDone();
        for (CompletableFuture<HttpResponse<String>> savepoint : savepoints) {
            assertThat(savepoint.get().statusCode()).as(savepoint.get().body()).isEqualTo(200);
        }
    }

    @Test
    void aSecondStopWhileTheFirstIsInProgressAnswersTheFirstStopsSavepoint() throws Exception {
        CompletableFuture<HttpResponse<String>> first = post(RunnerPaths.STOP_WITH_SAVEPOINT);
        awaitSavepointInProgress();
        CompletableFuture<HttpResponse<String>> second = post(RunnerPaths.STOP_WITH_SAVEPOINT);
        assertThat(first).as("the first stop is still in progress").isNotDone();

        assertThat(first.get().statusCode()).as(first.get().body()).isEqualTo(200);
        assertThat(second.get().statusCode()).as(second.get().body()).isEqualTo(200);
        String savepoint = mapper.readTree(first.get().body()).get("savepoint").asText();
        assertThat(mapper.readTree(second.get().body()).get("savepoint").asText())
                .isEqualTo(savepoint);
        HttpResponse<String> later = post(RunnerPaths.STOP_WITH_SAVEPOINT).get();
        assertThat(mapper.readTree(later.body()).get("savepoint").asText())
                .as("a retried stop")
                .isEqualTo(savepoint);
    }

    /**
     * The control thread has started a snapshot: the job left RUNNING or a checkpoint is pending.
     */
    private void awaitSavepointInProgress() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (Thread.getAllStackTraces().keySet().stream()
                .noneMatch(
                        t ->
                                t.getName().equals("flowscale-control")
                                        && t.getState() != Thread.State.RUNNABLE
                                        && isSnapshotting(t))) {
            assertThat(System.nanoTime())
                    .as("a control request started within 20 s")
                    .isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(
                    5_000_000); // poll, not spin: the job needs the cores
        }
    }

    private static boolean isSnapshotting(Thread t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().equals(JobControlApi.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> post(String path) {
        return http.sendAsync(
                HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return served.uri(path);
    }
}
