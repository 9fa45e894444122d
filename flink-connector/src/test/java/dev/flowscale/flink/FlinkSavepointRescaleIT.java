package dev.flowscale.flink;

import static dev.flowscale.flink.FlinkInPlaceRescaleIT.assertExact;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.COUNT;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.SOURCE;
import static dev.flowscale.flink.FlinkRestMetricsSourceIT.SPLIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.flink.testing.RestProxy;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.testsupport.Await;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The savepoint path on a real Flink 2.3 MiniCluster with the default scheduler (which cannot
 * rescale in place): the word count's jar is uploaded and run through Flink's REST API, and the
 * rescaler stops it with a savepoint and runs the jar again from it with per-vertex parallelism
 * overrides, which the job applies itself ({@code ParallelismOverrides}); when a run does not come
 * up at the new parallelism (a job that leaves them to Flink 2.3, or a REST endpoint gone), it
 * rolls back from the same savepoint. Per-word counts are exact across every restore. One cluster
 * for the class; each test runs its own job.
 */
@Tag("flink-rescale")
class FlinkSavepointRescaleIT {
    private static LocalFlinkCluster flink;
    private static FlinkRestClient rest;
    private static String jarId;

    @BeforeAll
    static void startCluster() throws Exception {
        flink = LocalFlinkCluster.start(8, false);
        // a jar run takes seconds on a loaded machine: a timed-out answer would leave a run behind
        rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(60));
        jarId = rest.uploadJar(flink.wordCountJar());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        flink.close();
    }

    @Test
    void rescalesAJobOnTheDefaultSchedulerThroughASavepointWithExactCounts() throws Exception {
        FlinkWordCount.Settings settings = settings("savepoint");
        FlinkJobRef job = run(rest, settings.args());
        String firstRun = job.jobId();
        List<RescaleReport> reports = new CopyOnWriteArrayList<>();
        try (FlinkRescaler rescaler =
                rescaler(job, settings.args(), Duration.ofSeconds(60), reports)) {
            assertThat(rescaler.pathOf(decision(job))).isEqualTo("restart");
            rescaler.realize(decision(job)).toCompletableFuture().get(180, TimeUnit.SECONDS);
        }
        assertThat(job.jobId()).as("the rescaled job is a new run").isNotEqualTo(firstRun);
        assertThat(reports)
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.succeeded()).isTrue();
                            assertThat(r.savepoint()).isPresent();
                        });
        assertThat(job.read().parallelism()).isEqualTo(Map.of(SOURCE, 1, SPLIT, 2, COUNT, 3));
        assertThat(job.read().allVerticesRunning()).isTrue();

        stop(job);
        assertExact(FlinkWordCount.counts("savepoint"));
    }

    @Test
    void rollsBackFromTheSameSavepointWhenTheResubmittedJobIgnoresTheOverrides() throws Exception {
        FlinkWordCount.Settings settings = settings("ignored");
        List<String> args = new ArrayList<>(settings.args());
        args.add(FlinkWordCount.IGNORE_OVERRIDES);
        FlinkJobRef job = run(rest, args);
        String firstRun = job.jobId();
        List<RescaleReport> reports = new CopyOnWriteArrayList<>();
        try (FlinkRescaler rescaler = rescaler(job, args, Duration.ofSeconds(40), reports)) {
            // Flink 2.3 runs a jar submitted over REST as a stream graph and applies
            // pipeline.jobvertex-parallelism-overrides to job graphs only: a job that does not
            // apply them itself comes up at the old parallelism, which the rescaler sees and says.
            assertThatThrownBy(
                            () ->
                                    rescaler.realize(decision(job))
                                            .toCompletableFuture()
                                            .get(120, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("did not apply pipeline.jobvertex-parallelism-overrides")
                    .hasMessageContaining("rolled back: the job runs at its old parallelism again");
        }
        assertThat(job.jobId())
                .as("the rollback is a new run, from the same savepoint")
                .isNotEqualTo(firstRun);
        assertThat(reports).singleElement().satisfies(r -> assertThat(r.savepoint()).isPresent());
        assertThat(job.read().parallelism()).isEqualTo(Map.of(SOURCE, 1, SPLIT, 1, COUNT, 1));

        stop(job);
        assertExact(FlinkWordCount.counts("ignored"));
    }

    @Test
    void rollsBackFromTheSameSavepointWhenTheRestEndpointDisappearsMidRescale() throws Exception {
        FlinkWordCount.Settings settings = settings("rollback");
        try (RestProxy proxy = new RestProxy(flink.rest())) {
            FlinkJobRef job =
                    new FlinkJobRef(
                            new FlinkRestClient(proxy.uri(), Duration.ofSeconds(5)),
                            run(rest, settings.args()).jobId());
            List<RescaleReport> reports = new CopyOnWriteArrayList<>();
            try (FlinkRescaler rescaler =
                    rescaler(job, settings.args(), Duration.ofSeconds(8), reports)) {
                proxy.disappearAfter("/run", Duration.ofSeconds(12));
                assertThatThrownBy(
                                () ->
                                        rescaler.realize(decision(job))
                                                .toCompletableFuture()
                                                .get(90, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasMessageContaining("Flink's REST endpoint did not answer")
                        .hasMessageContaining(
                                "rolled back: the job runs at its old parallelism again");
            }
            RescaleReport report = reports.get(0);
            assertThat(report.savepoint()).isPresent();
            assertThat(job.read().parallelism()).isEqualTo(Map.of(SOURCE, 1, SPLIT, 1, COUNT, 1));
            assertThat(
                            java.util.stream.StreamSupport.stream(
                                            rest.get("jobs/overview").path("jobs").spliterator(),
                                            false)
                                    .filter(j -> "RUNNING".equals(j.path("state").asText()))
                                    .filter(j -> j.path("name").asText().endsWith("-rollback")))
                    .as("the run at the new parallelism was canceled before the rollback started")
                    .hasSize(1);
            stop(job);
        }
        assertExact(FlinkWordCount.counts("rollback"));
    }

    private static FlinkWordCount.Settings settings(String tag) {
        return new FlinkWordCount.Settings(
                tag, System.currentTimeMillis(), 100, 1_000_000, 2000, 500, 16);
    }

    private static FlinkJobRef run(FlinkRestClient client, List<String> args) {
        String id =
                client.post("jars/" + jarId + "/run", Map.of("programArgsList", args))
                        .path("jobid")
                        .asText();
        FlinkJobRef job = new FlinkJobRef(client, id);
        Await.until(
                Duration.ofSeconds(60), "the job to run", () -> job.read().allVerticesRunning());
        return job;
    }

    private static FlinkRescaler rescaler(
            FlinkJobRef job, List<String> args, Duration timeout, List<RescaleReport> reports) {
        return new FlinkRescaler(
                job,
                Optional.of(new JarResubmission(jarId, null, args)),
                timeout,
                Clock.systemUTC(),
                List.of(reports::add));
    }

    private static ScalingDecision decision(FlinkJobRef job) {
        String name = job.read().name();
        return ScalingDecision.of(
                Instant.now(),
                name,
                List.of("test: Split 1 -> 2, Count 1 -> 3"),
                List.of(
                        new OperatorDecision(SOURCE, 1, 1, 1, 0, 0, 0, 0, List.of()),
                        new OperatorDecision(SPLIT, 1, 2, 2, 0, 0, 0, 0, List.of()),
                        new OperatorDecision(COUNT, 1, 3, 3, 0, 0, 0, 0, List.of())));
    }

    private static void stop(FlinkJobRef job) {
        new FlinkSteps(job, Clock.systemUTC()).stopWithSavepoint(Instant.now().plusSeconds(60));
        Await.until(
                Duration.ofSeconds(60),
                "the job to stop",
                () -> "FINISHED".equals(job.read().state()));
    }
}
