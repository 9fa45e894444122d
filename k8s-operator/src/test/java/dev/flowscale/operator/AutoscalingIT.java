package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerTokens;
import dev.flowscale.testsupport.EngineJar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole operator on the mock API server with the runner played by a real engine runner process
 * ({@link LocalKubelet}): a bottleneck leads to a decision in status and Events, and in mode auto
 * to a rescale through a savepoint, or a rollback when the new runner never comes up.
 */
class AutoscalingIT {
    static final String NS = "jobs";
    static final Duration WAIT = Duration.ofSeconds(60);

    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    Operator operator;
    JobAutoscalers loops;
    LocalKubelet kubelet;
    final JumpingClock clock = new JumpingClock();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @TempDir Path dir;

    @AfterEach
    void stop() {
        operator.stop();
        loops.close();
        kubelet.close();
        client.close();
        server.close();
    }

    @Test
    void inModeRecommendABottleneckIsReportedAndTheRunnerKeepsItsParallelism() throws IOException {
        start(AutoscalerMode.RECOMMEND, args -> true);

        StreamJob job =
                awaitJob(
                        j ->
                                j.getStatus().lastDecision != null
                                        && j.getStatus().lastDecision.summary.contains("split 1→"));
        assertThat(job.getStatus().lastDecision.outcome).isEqualTo("SCALE");
        // The reporter writes status first and then the Event: wait for the Event too.
        assertThat(
                        Eventually.await(
                                WAIT,
                                "a ScalingReport Event",
                                () -> events(JobEvents.SCALING_REPORT),
                                l -> !l.isEmpty()))
                .isNotEmpty();
        assertThat(args()).contains("count=1,split=1").doesNotContain("--restore-from");
        assertThat(job.getStatus().phase).isEqualTo(JobPhase.Running);
        assertThat(registry.scrape())
                .contains("flowscale_controller_decisions_total{")
                .contains("job=\"" + NS + "/wc\"")
                .doesNotContain("job=\"wordcount\"");
        assertThat(runnerScrape())
                .as("the runner's metrics carry the same job label")
                .contains("flowscale_records_in_total{instance=\"0\",job=\"" + NS + "/wc\"");

        client.resources(StreamJob.class).inNamespace(NS).withName("wc").delete();
        Eventually.await(
                WAIT,
                "the operator to drop the deleted job's series",
                registry::scrape,
                scrape -> !scrape.contains("job=\"" + NS + "/wc\""));
    }

    @Test
    void inModeAutoABottleneckRescalesTheRunnerThroughASavepoint() throws IOException {
        start(AutoscalerMode.AUTO, args -> true);

        StreamJob job =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().parallelism.getOrDefault("split", 1) > 1
                                        && !events(JobEvents.RESCALED).isEmpty());
        assertThat(args()).contains("--restore-from");
        assertThat(job.getStatus().lastSavepoint).startsWith(dir.resolve("savepoints").toString());
        assertThat(args()).contains("split=" + job.getStatus().parallelism.get("split"));
        // The rescale meters exist at zero from the first decision: the rescale must count. The
        // loop learns that the rescale ended, and its downtime, from the status at its next tick.
        Eventually.await(
                WAIT,
                "the loop to record the rescale it observes in the status",
                registry::scrape,
                scrape ->
                        scrape.contains(
                                "flowscale_controller_rescale_downtime_seconds_count{job=\""
                                        + NS
                                        + "/wc\"} 1"));
        assertThat(registry.scrape())
                .containsPattern(
                        "flowscale_controller_rescale_downtime_seconds_count\\{job=\""
                                + NS
                                + "/wc\"\\} [1-9]")
                .containsPattern(
                        "flowscale_controller_rescales_total\\{job=\""
                                + NS
                                + "/wc\",result=\"succeeded\"\\} [1-9]")
                .contains("flowscale_controller_decision_timestamp_seconds{change=\"split 1→");
        assertThat(kubelet.restarts())
                .as("the stopped runner lingered until its pod was replaced")
                .isZero();
    }

    @Test
    void whenTheNewRunnerNeverComesUpTheJobRollsBackFromTheSameSavepoint() throws IOException {
        start(AutoscalerMode.AUTO, args -> !args.contains("--restore-from") || splitAtOne(args));
        // The rescale times out only once its new runner is known never to start, however long a
        // loaded machine took to get there.
        awaitJob(
                j ->
                        j.getStatus().pending != null
                                && j.getStatus().pending.savepoint != null
                                && args().contains("--restore-from")
                                && !splitAtOne(List.of(args().split(" "))));
        clock.jump(RunnerJobHarness.NO_RESCALE_TIMEOUT.plusSeconds(1));

        List<Event> failed =
                Eventually.await(
                        WAIT,
                        "a RescaleFailed Event",
                        () -> events(JobEvents.RESCALE_FAILED),
                        l -> !l.isEmpty());
        assertThat(failed.get(0).getMessage()).contains("rolled back");
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        assertThat(args()).contains("--restore-from");
        assertThat(splitAtOne(List.of(args().split(" ")))).isTrue();
    }

    private static boolean splitAtOne(List<String> args) {
        return args.stream().anyMatch(a -> a.matches("(.*,)?split=1(,.*)?"));
    }

    @Test
    void suspendingStopsTheRunnerWithASavepointAndResumingRestoresFromIt() throws IOException {
        start(AutoscalerMode.OFF, args -> true);
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);

        editSpec(j -> j.getSpec().suspend = true);
        StreamJob suspended = awaitJob(j -> j.getStatus().phase == JobPhase.Suspended);
        assertThat(suspended.getStatus().lastSavepoint)
                .startsWith(dir.resolve("savepoints").toString());
        assertThat(events(JobEvents.SAVEPOINT_UPGRADE)).hasSize(1);
        assertThat(
                        client.apps()
                                .deployments()
                                .inNamespace(NS)
                                .withName("wc-runner")
                                .get()
                                .getSpec()
                                .getReplicas())
                .isZero();

        editSpec(j -> j.getSpec().suspend = false);
        awaitJob(
                j ->
                        j.getStatus().phase == JobPhase.Running
                                && j.getMetadata().getGeneration() == 3L);
        assertThat(args()).contains("--restore-from " + suspended.getStatus().lastSavepoint);
        assertThat(kubelet.restarts())
                .as("the stopped runner lingered until its pod was replaced")
                .isZero();
    }

    @Test
    void changingTheJobArgumentsUpgradesTheRunnerThroughASavepoint() throws IOException {
        start(AutoscalerMode.OFF, args -> true);
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);

        editSpec(
                j -> j.getSpec().job.args = List.of("--rate", "1000", "--cost", "split=sleep:2ms"));

        // Generation 2 observed with its savepoint recorded (that no status reports it before the
        // savepoint is checked on every stored status in NodeLossIT).
        StreamJob upgraded =
                awaitJob(
                        j ->
                                j.getStatus().observedGeneration == 2L
                                        && j.getStatus().lastSavepoint != null
                                        && j.getStatus().pending == null);
        assertThat(upgraded.getStatus().pending).isNull();
        assertThat(upgraded.getStatus().phase).isEqualTo(JobPhase.Running);
        assertThat(upgraded.getStatus().lastSavepoint).isNotNull();
        assertThat(args())
                .contains("--rate 1000")
                .contains("--restore-from " + upgraded.getStatus().lastSavepoint);
        assertThat(events(JobEvents.SAVEPOINT_UPGRADE)).hasSize(1);
        assertThat(
                        Eventually.await(
                                "the Event that generation 2 was applied",
                                () -> events(JobEvents.DEPLOYED),
                                e -> e.stream().anyMatch(d -> d.getMessage().endsWith(" 2"))))
                .filteredOn(d -> d.getMessage().endsWith("for generation 2"))
                .singleElement();
        assertThat(kubelet.restarts())
                .as("the stopped runner lingered until its pod was replaced")
                .isZero();
    }

    private String runnerScrape() {
        try {
            return java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            kubelet.address().resolve("/metrics"))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void editSpec(java.util.function.Consumer<StreamJob> change) {
        RunnerJobHarness.editSpec(client, change);
    }

    private void start(AutoscalerMode mode, Predicate<List<String>> accept) throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        kubelet =
                new LocalKubelet(
                        client,
                        NS,
                        "wc-runner",
                        engineJar(),
                        RunnerJobHarness.freePort(),
                        dir,
                        accept);
        loops =
                FlowscaleOperator.loops(
                        client,
                        registry,
                        j -> kubelet.address(),
                        RunnerJobHarness.NO_RESCALE_TIMEOUT,
                        Clock.systemUTC());
        operator =
                FlowscaleOperator.create(
                        client,
                        loops,
                        new HttpRunnerControl(
                                j -> kubelet.address(),
                                Duration.ofSeconds(10),
                                new RunnerTokens(client)),
                        clock);
        operator.start();
        client.resource(bottleneckedWordCount(NS, "wc", mode, dir.resolve("savepoints"))).create();
    }

    /** split costs 2 ms per sentence (500/s per instance) and the source emits 1,500/s. */
    static StreamJob bottleneckedWordCount(
            String namespace, String name, AutoscalerMode mode, Path savepoints) {
        StreamJob job = StreamJobs.wordCount(namespace, name);
        job.getSpec().job.args = List.of("--rate", "1500", "--cost", "split=sleep:2ms");
        job.getSpec().parallelism.clear();
        job.getSpec().parallelism.putAll(Map.of("split", 1, "count", 1));
        job.getSpec().savepoints.claimName =
                null; // the local kubelet runs the runner on this machine's disk
        job.getSpec().savepoints.ephemeral = true;
        job.getSpec().savepoints.path = savepoints.toString();
        job.getSpec().autoscaler.mode = mode;
        job.getSpec().autoscaler.policyInterval = "2s";
        job.getSpec().autoscaler.warmUp = "1s";
        job.getSpec().autoscaler.maxParallelism = 8;
        return job;
    }

    private String args() {
        return RunnerJobHarness.args(client);
    }

    private StreamJob awaitJob(Predicate<StreamJob> check) {
        return RunnerJobHarness.awaitJob(client, check);
    }

    private List<Event> events(String reason) {
        return RunnerJobHarness.events(client, reason);
    }

    static Path engineJar() {
        return EngineJar.path();
    }
}
