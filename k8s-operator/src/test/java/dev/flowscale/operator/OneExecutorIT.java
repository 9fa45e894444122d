package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.Fabric8RunnerCluster;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerResources;
import dev.flowscale.testsupport.Await;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reconciler as the one executor that changes a runner, on a mock API server that answers a
 * stale update with 409 as a real one does ({@link OptimisticMockServer}) and a real engine runner
 * process played by {@link LocalKubelet}: operator restarts, spec changes and operator upgrades in
 * the middle of a change, mode switches, lost stop replies, and rescales in place.
 */
class OneExecutorIT {
    static final String NS = AutoscalingIT.NS;
    static final Duration WAIT = AutoscalingIT.WAIT;
    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    // Fabric8 retries a request 10 times over about 100 s; the operator's client here retries
    // twice,
    // so that an API server out of reach for longer than its retries is played in 3 requests.
    final KubernetesClient operatorClient =
            new KubernetesClientBuilder()
                    .withConfig(
                            new ConfigBuilder(client.getConfiguration())
                                    .withRequestRetryBackoffLimit(2)
                                    .build())
                    .build();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Operator operator;
    JobAutoscalers loops;
    LocalKubelet kubelet;

    @TempDir Path dir;

    @AfterEach
    void stop() {
        stopOperator();
        kubelet.close();
        operatorClient.close();
        client.close();
        server.close();
    }

    @Test
    void anOperatorKilledInTheMiddleOfARescaleAndStartedAgainFinishesItFromOneSavepoint()
            throws IOException {
        start(AutoscalerMode.AUTO, args -> true, job -> {});
        awaitJob(j -> j.getStatus().pending != null);
        stopOperator();

        startOperator();

        StreamJob done =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().pending == null
                                        && j.getStatus().lastRescale != null);
        assertThat(done.getStatus().lastRescale.succeeded).isTrue();
        assertThat(args()).contains("--restore-from " + done.getStatus().lastSavepoint);
        assertThat(runnerJob().get("status").asText()).isEqualTo("RUNNING");
        assertThat(runnerParallelism("split")).isEqualTo(done.getStatus().parallelism.get("split"));
        // A heap-state rescale in place writes its savepoint after the job resumes.
        Await.until(
                Duration.ofSeconds(30),
                "the in-place rescale's savepoint to be written",
                () -> {
                    try {
                        return savepointsTaken() == 1;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        assertThat(savepointsTaken())
                .as("one executor took one savepoint for the rescale")
                .isEqualTo(1);
        assertThat(kubelet.restarts()).isZero();
    }

    @Test
    void aSpecChangeDuringARescaleJoinsItsRestoreFromTheRescalesSavepoint() throws IOException {
        // A pod restoring from the rescale's savepoint starts only with the new spec's arguments:
        // opening the gate at the edit instead let a loaded operator's rescale-only pod start
        // before it saw the edit (three pods, in a loaded build).
        start(
                AutoscalerMode.AUTO,
                args -> !args.contains("--restore-from") || args.contains("1600"),
                job -> {});
        StreamJob rescaling =
                awaitJob(
                        j ->
                                j.getStatus().pending != null
                                        && j.getStatus().pending.savepoint != null);

        editSpec(
                j -> j.getSpec().job.args = List.of("--rate", "1600", "--cost", "split=sleep:2ms"));

        StreamJob upgraded =
                awaitJob(
                        j ->
                                j.getStatus().observedGeneration == 2L
                                        && j.getStatus().pending == null
                                        && j.getStatus().phase == JobPhase.Running
                                        && args().contains("--rate 1600"));
        String savepoint = rescaling.getStatus().pending.savepoint;
        assertThat(upgraded.getStatus().lastRescale.succeeded).isTrue();
        assertThat(args())
                .contains(
                        "--parallelism "
                                + ParallelismText.summary(upgraded.getStatus().parallelism))
                .contains("--restore-from " + savepoint);
        assertThat(runnerParallelism("split"))
                .isEqualTo(upgraded.getStatus().parallelism.get("split"));
        assertThat(kubelet.started())
                .as("one new pod took both changes from the savepoint")
                .isEqualTo(2);
        assertThat(savepointsTaken()).isEqualTo(1);
    }

    @Test
    void switchingFromAutoToRecommendKeepsTheRunnerAsItRuns() throws IOException {
        start(AutoscalerMode.AUTO, args -> true, job -> {});
        StreamJob rescaled =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().lastRescale != null
                                        && j.getStatus().lastRescale.succeeded);
        String argsBefore = args();
        int podsBefore = kubelet.started();

        editSpec(j -> j.getSpec().autoscaler.mode = AutoscalerMode.RECOMMEND);

        String switched = java.time.Instant.now().toString();
        StreamJob recommending =
                awaitJob(
                        j ->
                                j.getStatus().observedGeneration == 2L
                                        && j.getStatus().lastDecision != null
                                        && j.getStatus().lastDecision.time.compareTo(switched) > 0);
        assertThat(recommending.getStatus().parallelism)
                .isEqualTo(rescaled.getStatus().parallelism);
        assertThat(args()).isEqualTo(argsBefore);
        assertThat(kubelet.started()).as("no new runner pod").isEqualTo(podsBefore);
    }

    @Test
    void anOperatorReleaseThatChangesThePodTemplateStopsTheRunnerWithASavepointFirst()
            throws IOException {
        start(AutoscalerMode.OFF, args -> true, job -> {});
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);
        stopOperator();
        // As an earlier release left it: another template, stamped with that release's hash.
        client.apps()
                .deployments()
                .inNamespace(NS)
                .withName("wc-runner")
                .edit(
                        d -> {
                            d.getMetadata()
                                    .getAnnotations()
                                    .put(Fabric8RunnerCluster.HASH_ANNOTATION, "earlier-release");
                            d.getSpec()
                                    .getTemplate()
                                    .getSpec()
                                    .getContainers()
                                    .get(0)
                                    .setEnv(List.of(new EnvVar("OLD", "1", null)));
                            return d;
                        });

        startOperator();

        StreamJob upgraded =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().pending == null
                                        && j.getStatus().lastSavepoint != null);
        assertThat(args()).contains("--restore-from " + upgraded.getStatus().lastSavepoint);
        assertThat(events(JobEvents.SAVEPOINT_UPGRADE))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("(upgrade"));
        assertThat(deployment().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .extracting(EnvVar::getName)
                .containsExactly(RunnerResources.TOKEN_ENV); // this release's, not OLD
        assertThat(kubelet.restarts()).isZero();
    }

    @Test
    void aRunnerThatStoppedWithASavepointWhoseReplyWasLostIsRestartedFromIt() throws Exception {
        start(AutoscalerMode.OFF, args -> true, job -> {});
        awaitJob(j -> j.getStatus().phase == JobPhase.Running);

        String savepoint = stopRunnerBehindTheOperatorsBack();

        // The pass records the savepoint, then applies the Deployment: wait for both.
        StreamJob repaired =
                awaitJob(
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && savepoint.equals(j.getStatus().lastSavepoint)
                                        && args().contains("--restore-from " + savepoint));
        assertThat(events(JobEvents.STRANDED_RUNNER))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains(savepoint));
        assertThat(repaired.getStatus().observedGeneration).isEqualTo(1L);
    }

    @Test
    void aRescaleWithinThePodsSlotsHappensInPlaceAndIsReportedAsSuch() throws IOException {
        // The API server applies the status write that ends the rescale, but its reply is lost.
        server.loseReplyToStatusUpdate(
                "/streamjobs/wc",
                job ->
                        job.path("status").has("lastRescale")
                                && job.path("status").path("pending").isMissingNode(),
                2);
        start(AutoscalerMode.AUTO, args -> true, job -> job.getSpec().resources.headroom = 3.0);
        // The runner is not ready while it rescales; a real kubelet reports it ready again only at
        // its next probe, so the pass that finishes the rescale may see the pod not ready.
        awaitJob(j -> j.getStatus().pending != null || j.getStatus().lastRescale != null);
        kubelet.failReadinessProbe();
        awaitJob(
                j ->
                        j.getStatus().lastRescale != null
                                && j.getStatus().pending == null
                                && j.getStatus().phase == JobPhase.Deploying);
        assertThat(loops.running(NS, "wc"))
                .as("the job's autoscaler loop outlives a runner that is briefly not ready")
                .isTrue();
        kubelet.passReadinessProbe();

        StreamJob done =
                awaitJob(
                        j ->
                                j.getStatus().lastRescale != null
                                        && j.getStatus().pending == null
                                        && j.getStatus().phase == JobPhase.Running);

        assertThat(done.getStatus().lastRescale.path).isEqualTo(PendingChange.IN_PLACE);
        assertThat(done.getStatus().lastRescale.succeeded).isTrue();
        assertThat(done.getStatus().lastRescale.downtimeSeconds).isPositive();
        assertThat(kubelet.started()).as("the pod was not replaced").isEqualTo(1);
        assertThat(args())
                .contains("--parallelism count=1,split=1")
                .doesNotContain("--restore-from");
        assertThat(runnerParallelism("split")).isEqualTo(done.getStatus().parallelism.get("split"));
        // The rescale is reported (Event, then metric) just after its end is written in status.
        String metric =
                "flowscale_controller_rescale_path_downtime_seconds_count{job=\""
                        + NS
                        + "/wc\",path=\"in-place\",result=\"succeeded\"} 1";
        String loopMetric =
                "flowscale_controller_rescale_downtime_seconds_count{job=\"" + NS + "/wc\"} 1";
        Eventually.await(
                "the in-place rescale's metrics",
                registry::scrape,
                scrape -> scrape.contains(metric) && scrape.contains(loopMetric));
        assertThat(server.lostReplies()).as("the reply to the rescale's end was lost").isEqualTo(3);
        assertThat(events(JobEvents.RESCALED))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("(in-place)"));
        assertThat(done.getStatus().lastRescale.reportPending).isNull();
        assertThat(done.getStatus().history)
                .as("the autoscaler's decisions survive the reconciler's writes")
                .isNotEmpty();
    }

    private String stopRunnerBehindTheOperatorsBack() throws Exception {
        HttpResponse<String> reply =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                kubelet.address()
                                                        .resolve("/api/v1/stop-with-savepoint"))
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(reply.body())
                .get("savepoint")
                .asText();
    }

    private long savepointsTaken() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("savepoints"))) {
            return files.filter(p -> p.getFileName().toString().equals("_metadata")).count();
        }
    }

    private void start(
            AutoscalerMode mode, Predicate<List<String>> accept, Consumer<StreamJob> customize)
            throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        kubelet =
                new LocalKubelet(
                        client,
                        NS,
                        "wc-runner",
                        AutoscalingIT.engineJar(),
                        RunnerJobHarness.freePort(),
                        dir,
                        accept);
        startOperator();
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(NS, "wc", mode, dir.resolve("savepoints"));
        customize.accept(job);
        client.resource(job).create();
    }

    private void startOperator() {
        loops =
                FlowscaleOperator.loops(
                        operatorClient,
                        registry,
                        j -> kubelet.address(),
                        RunnerJobHarness.NO_RESCALE_TIMEOUT,
                        Clock.systemUTC());
        operator =
                FlowscaleOperator.create(
                        operatorClient,
                        loops,
                        new HttpRunnerControl(j -> kubelet.address(), Duration.ofSeconds(10)),
                        Clock.systemUTC());
        operator.start();
    }

    private void stopOperator() {
        if (operator != null) {
            operator.stop();
            loops.close();
            operator = null;
        }
    }

    private Deployment deployment() {
        return RunnerJobHarness.deployment(client);
    }

    private String args() {
        return RunnerJobHarness.args(client);
    }

    private void editSpec(Consumer<StreamJob> change) {
        RunnerJobHarness.editSpec(client, change);
    }

    private int runnerParallelism(String op) {
        for (var node : runnerJob().get("operators")) {
            if (node.get("id").asText().equals(op)) {
                return node.get("parallelism").asInt();
            }
        }
        throw new AssertionError("the runner has no operator " + op + ": " + runnerJob());
    }

    private com.fasterxml.jackson.databind.JsonNode runnerJob() {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(
                            HttpClient.newHttpClient()
                                    .send(
                                            HttpRequest.newBuilder(
                                                            kubelet.address()
                                                                    .resolve("/api/v1/job"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private StreamJob awaitJob(Predicate<StreamJob> check) {
        return RunnerJobHarness.awaitJob(client, check);
    }

    private List<Event> events(String reason) {
        return RunnerJobHarness.events(client, reason);
    }
}
