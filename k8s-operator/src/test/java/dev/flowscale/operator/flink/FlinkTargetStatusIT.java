package dev.flowscale.operator.flink;

import static dev.flowscale.operator.FlinkDeploymentTargetIT.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.operator.FlinkDeploymentTargetIT;
import dev.flowscale.operator.FlinkOperatorCrd;
import dev.flowscale.operator.OptimisticMockServer;
import dev.flowscale.operator.TestingOperator;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.Fabric8JobEvents;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.policy.api.ScalingRealizer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a StreamJob that targets a FlinkDeployment shows of its Flink job, as a runner job shows its
 * runner: status.parallelism from the samples; during a rescale condition Scaling True; after it
 * lastRescale, Scaling False, a Rescaled or RescaleFailed Event and the path-downtime timer. On the
 * mock API server with the StreamJob CRD and the Flink Kubernetes operator's FlinkDeployment CRD
 * enforced; the realizer is the real one, the Flink job's vertices a value (the session-cluster
 * path runs against a real Flink in FlinkSessionTargetIT).
 */
class FlinkTargetStatusIT {
    private final OptimisticMockServer server = new OptimisticMockServer();
    private final KubernetesClient client = server.client();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private FlinkTargetStatus status;

    @BeforeEach
    void createTheStreamJobAndItsFlinkDeployment() {
        TestingOperator.installCrd(client);
        FlinkOperatorCrd.install(server, client);
        client.resource(FlinkDeploymentTargetIT.target(NS, "wc", "wordcount")).create();
        client.genericKubernetesResources(FlinkDeployments.FLINK_DEPLOYMENT)
                .inNamespace(NS)
                .resource(FlinkDeploymentTargetIT.deployment("wordcount", Map.of()))
                .create();
        Fabric8JobEvents events = new Fabric8JobEvents(client, Clock.systemUTC());
        status =
                new FlinkTargetStatus(
                        new JobStatusStore(client),
                        new RescaleReporting(events, registry),
                        NS,
                        "wc",
                        Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
        client.close();
        server.close();
    }

    @Test
    void theFlinkJobsParallelismAndItsRescaleAreShownInStatusEventsAndMetrics() throws Exception {
        status.observing(sampling(FlinkDeploymentTargetIT.job(1, 1, 1))).sample();
        assertThat(streamJob().parallelism)
                .isEqualTo(Map.of("Source: Sentences", 1, "Split", 1, "Count -> Sink", 1));
        AtomicReference<String> scalingDuring = new AtomicReference<>();
        Supplier<FlinkJob> flink =
                () -> {
                    if (scalingDuring.get() == null) { // the realizer's first read: not written yet
                        scalingDuring.set("");
                        return FlinkDeploymentTargetIT.job(1, 1, 1);
                    }
                    scalingDuring.compareAndSet(
                            "",
                            Conditions.find(streamJob(), Conditions.SCALING)
                                    .orElseThrow()
                                    .getStatus());
                    return FlinkDeploymentTargetIT.job(1, 4, 6);
                };

        realizer(flink, Duration.ofSeconds(15))
                .realize(FlinkDeploymentTargetIT.decision())
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS);

        assertThat(scalingDuring.get()).as("condition Scaling while it rescales").isEqualTo("True");
        StreamJobStatus after = streamJob();
        Map<String, Integer> to = Map.of("Source: Sentences", 1, "Split", 4, "Count -> Sink", 6);
        assertThat(after.parallelism).isEqualTo(to);
        assertThat(after.parallelismSummary)
                .isEqualTo("Count -> Sink=6,Source: Sentences=1,Split=4");
        assertThat(after.lastRescale.succeeded).isTrue();
        assertThat(after.lastRescale.path).isEqualTo(FlinkTargetParts.DEPLOYMENT_PATH);
        assertThat(after.lastRescale.from)
                .isEqualTo(Map.of("Source: Sentences", 1, "Split", 1, "Count -> Sink", 1));
        assertThat(after.lastRescale.to).isEqualTo(to);
        assertScaling(after, "Rescaled");
        assertThat(events(JobEvents.RESCALED))
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e.getMessage())
                                        .startsWith(
                                                "rescaled Count -> Sink=6,Source: Sentences=1,Split=4"
                                                        + " (flink-deployment-overrides): down for"));
        assertThat(timer("succeeded").count()).isEqualTo(1);
    }

    @Test
    void aRescaleThatFailsIsAFailedRescaleAndLeavesTheParallelismShown() {
        status.observing(sampling(FlinkDeploymentTargetIT.job(1, 1, 1))).sample();
        client.genericKubernetesResources(FlinkDeployments.FLINK_DEPLOYMENT)
                .inNamespace(NS)
                .withName("wordcount")
                .delete();

        assertThatThrownBy(
                        () ->
                                realizer(
                                                () -> FlinkDeploymentTargetIT.job(1, 1, 1),
                                                Duration.ofSeconds(15))
                                        .realize(FlinkDeploymentTargetIT.decision())
                                        .toCompletableFuture()
                                        .get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("is gone: nothing written");

        StreamJobStatus after = streamJob();
        assertThat(after.parallelism)
                .isEqualTo(Map.of("Source: Sentences", 1, "Split", 1, "Count -> Sink", 1));
        assertThat(after.lastRescale.succeeded).isFalse();
        assertThat(after.lastRescale.message)
                .contains(
                        "the Flink job does not run at it: FlinkDeployment flink/wordcount is gone");
        assertScaling(after, "RescaleFailed");
        assertThat(events(JobEvents.RESCALE_FAILED))
                .singleElement()
                .satisfies(e -> assertThat(e.getType()).isEqualTo("Warning"));
        assertThat(timer("failed").count()).isEqualTo(1);
    }

    @Test
    void aRescaleLeftInProgressByAStoppedLoopIsMarkedInterruptedWhenTheNextLoopStarts() {
        AtomicReference<String> during = new AtomicReference<>();
        // The loop stops with the Scaling condition True (here: its realizer never completes).
        status.reporting(
                        decision -> new java.util.concurrent.CompletableFuture<>(), d -> "in-place")
                .realize(FlinkDeploymentTargetIT.decision());
        during.set(Conditions.find(streamJob(), Conditions.SCALING).orElseThrow().getStatus());

        status.loopStarted();

        assertThat(during.get()).isEqualTo("True");
        var scaling = Conditions.find(streamJob(), Conditions.SCALING).orElseThrow();
        assertThat(scaling.getStatus()).isEqualTo("False");
        assertThat(scaling.getReason()).isEqualTo("RescaleInterrupted");
    }

    private ScalingRealizer realizer(Supplier<FlinkJob> flink, Duration timeout) {
        return status.reporting(
                new FlinkDeploymentRealizer(
                        new FlinkDeployments(client),
                        NS,
                        "wordcount",
                        flink,
                        () -> {},
                        scheduler,
                        timeout,
                        Clock.systemUTC()),
                decision -> FlinkTargetParts.DEPLOYMENT_PATH);
    }

    /** What FlinkRestMetricsSource reads of a job: its topology (counters play no part here). */
    private static MetricsSource sampling(FlinkJob job) {
        return new MetricsSource() {
            @Override
            public MetricsSample sample() {
                return new MetricsSample(
                        job.topology(Map.of()), Instant.now(), job.id(), List.of());
            }

            @Override
            public String describe() {
                return "Flink job " + job.id();
            }
        };
    }

    private static void assertScaling(StreamJobStatus status, String reason) {
        var scaling = Conditions.find(status, Conditions.SCALING).orElseThrow();
        assertThat(scaling.getStatus()).isEqualTo("False");
        assertThat(scaling.getReason()).isEqualTo(reason);
        assertThat(scaling.getMessage()).isEqualTo(status.lastRescale.message);
    }

    private Timer timer(String result) {
        return registry.get(RescaleReporting.TIMER)
                .tags("path", FlinkTargetParts.DEPLOYMENT_PATH, "result", result)
                .timer();
    }

    private StreamJobStatus streamJob() {
        StreamJob job = client.resources(StreamJob.class).inNamespace(NS).withName("wc").get();
        return job.getStatus();
    }

    private List<Event> events(String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }
}
