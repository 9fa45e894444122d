package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.runner.api.MetricName;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A StreamJob whose spec.flink.restUrl points at a real Flink 2.3 session cluster (a MiniCluster in
 * this JVM, REST on loopback, adaptive scheduler) running flink-demo's word count (keyed state,
 * blocking per-record costs) at 1/1/1 under a load it cannot sustain, with the operator running on
 * the mock API server: the operator's loop samples Flink's REST API, decides, rescales the job in
 * place, and status (parallelism, last decision, last rescale, condition Scaling), Events and the
 * RBAC the calls need all show it. In profile flink-rescale: about a minute on a loaded 2-core
 * machine, most of it Flink's start (docs/flink.md).
 */
@Tag("flink-rescale")
public class FlinkSessionTargetIT {
    static final String NS = "flink";
    static final String SOURCE = "Source: Sentences";
    static final String SPLIT = "Split";
    static final String COUNT = "Count -> Counts: Writer";
    static final String AGENT = "flowscale-operator-under-test";
    static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void aStreamJobOnASessionClustersRestUrlIsRescaledInPlaceAndShowsItInStatusAndEvents()
            throws Exception {
        try (LocalFlinkCluster flink = LocalFlinkCluster.start(8, true);
                OptimisticMockServer server = new OptimisticMockServer();
                KubernetesClient client = server.client()) {
            // 200 sentences/s of 5 words; Split at most 167/s, Count at most 455 words/s per
            // instance.
            String jobId =
                    flink.submit(
                            new FlinkWordCount.Settings(
                                    "operator",
                                    System.currentTimeMillis(),
                                    200,
                                    1_000_000,
                                    6000,
                                    2200,
                                    16));
            TestingOperator.installCrd(client);
            server.takeRequests(); // the test's own setup
            try (KubernetesClient operatorClient = agent(client);
                    TestingOperator operator = TestingOperator.electing(operatorClient, null)) {
                client.resource(sessionTarget(flink.rest().toString(), jobId)).create();

                StreamJob job = awaitRescaled(client);

                var rescale = job.getStatus().lastRescale;
                assertThat(rescale.succeeded).as(rescale.message).isTrue();
                assertThat(rescale.path).isEqualTo("in-place");
                assertThat(rescale.from).isEqualTo(Map.of(SOURCE, 1, SPLIT, 1, COUNT, 1));
                assertThat(rescale.to.get(SPLIT))
                        .as("at least 200 / 167 per instance")
                        .isBetween(2, 4);
                assertThat(rescale.to.get(COUNT))
                        .as("at least 1,000 / 455 per instance")
                        .isBetween(3, 8);
                Map<String, Integer> runs =
                        new FlinkJobRef(
                                        new FlinkRestClient(flink.rest(), Duration.ofSeconds(10)),
                                        jobId)
                                .read()
                                .parallelism();
                assertThat(runs).as("what Flink runs").isEqualTo(rescale.to);
                assertThat(job.getStatus().parallelism).isEqualTo(rescale.to);
                assertThat(job.getStatus().parallelismSummary)
                        .contains(SPLIT + "=" + rescale.to.get(SPLIT));
                // Decisions taken while the rescale ran are BLOCKED and may be the last one.
                assertThat(job.getStatus().history)
                        .as("the decision that rescaled, with its reasons")
                        .anySatisfy(
                                d -> {
                                    assertThat(d.outcome).isEqualTo("SCALE");
                                    assertThat(d.reasons).isNotEmpty();
                                });
                var scaling = Conditions.find(job.getStatus(), Conditions.SCALING).orElseThrow();
                assertThat(scaling.getStatus()).isEqualTo("False");
                assertThat(scaling.getReason()).isEqualTo("Rescaled");
                assertThat(events(client, JobEvents.SCALING_REPORT)).isNotEmpty();
                assertThat(events(client, JobEvents.RESCALED))
                        .singleElement()
                        .satisfies(e -> assertThat(e.getMessage()).contains("(in-place)"));
                // The loop takes the rescale as ended once its input cost is known, then counts it.
                assertInputCost(client, rescale.downtimeSeconds);
                assertControllerMetrics(operator.loops().registry(), rescale.to.get(SPLIT));
            }
            assertThat(deniedCalls(server.takeRequests()))
                    .as("calls the manifest's RBAC would deny")
                    .isEmpty();
        }
    }

    /** The series the dashboard's controller panels read, as for a runner job. */
    private static void assertControllerMetrics(MeterRegistry registry, int split) {
        // The loop counts a rescale at its first tick after its history shows the end.
        Eventually.await(
                "the loop to count the rescale",
                () ->
                        registry.find(MetricName.CONTROLLER_RESCALES.micrometer())
                                .tags("job", NS + "/wc", "result", "succeeded")
                                .counter(),
                counter -> counter != null && counter.count() > 0);
        assertThat(
                        registry.get(MetricName.CONTROLLER_RESCALES.micrometer())
                                .tags("job", NS + "/wc", "result", "succeeded")
                                .counter()
                                .count())
                .isEqualTo(1);
        assertThat(
                        registry.get(MetricName.CONTROLLER_RESCALE_DOWNTIME.micrometer())
                                .tags("job", NS + "/wc")
                                .timer()
                                .count())
                .isEqualTo(1);
        assertThat(
                        registry.get(RescaleReporting.TIMER)
                                .tags("job", NS + "/wc", "path", "in-place", "result", "succeeded")
                                .timer()
                                .count())
                .isEqualTo(1);
        assertThat(
                        registry.get(MetricName.CONTROLLER_PARALLELISM.micrometer())
                                .tags("job", NS + "/wc", "operator", SPLIT)
                                .gauge()
                                .value())
                .as("the parallelism at the last decision: before or after the rescale")
                .isIn(1.0, (double) split);
    }

    /**
     * The input the in-place rescale cost, found by later passes from the checkpoint Flink
     * restarted the job from, in status and in the loop's history (so the policy plans with it).
     */
    private static void assertInputCost(KubernetesClient client, double downtimeSeconds) {
        StreamJob job =
                Eventually.await(
                        WAIT,
                        "the rescale's input cost looked for",
                        () ->
                                client.resources(StreamJob.class)
                                        .inNamespace(NS)
                                        .withName("wc")
                                        .get(),
                        j -> j.getStatus().lastRescale.inputCostPending == null);
        assertThat(job.getStatus().lastRescale.inputCostSeconds)
                .as(
                        "from where the restart resumed its input until the job ran: at least the downtime")
                .isNotNull()
                .isGreaterThanOrEqualTo(downtimeSeconds);
        String history =
                Eventually.await(
                        WAIT,
                        "the loop's history with the rescale's input cost",
                        () -> loopHistory(client),
                        h -> h.contains("inputCostNanos"));
        assertThat(history).contains("\"path\":\"in-place\"");
    }

    /**
     * The loop's stored history (ConfigMap wc-autoscaler, gzipped JSON), "" before it is written.
     */
    private static String loopHistory(KubernetesClient client) {
        ConfigMap stored = client.configMaps().inNamespace(NS).withName("wc-autoscaler").get();
        if (stored == null || stored.getBinaryData() == null) {
            return "";
        }
        byte[] gz = Base64.getDecoder().decode(stored.getBinaryData().get("history.json.gz"));
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StreamJob awaitRescaled(KubernetesClient client) {
        return Eventually.await(
                WAIT,
                "the StreamJob's last rescale",
                () -> client.resources(StreamJob.class).inNamespace(NS).withName("wc").get(),
                j -> j.getStatus() != null && j.getStatus().lastRescale != null);
    }

    static StreamJob sessionTarget(String restUrl, String jobId) {
        StreamJob job = new StreamJob();
        job.setMetadata(new ObjectMetaBuilder().withName("wc").withNamespace(NS).build());
        job.setSpec(new StreamJobSpec());
        job.getSpec().flink = new FlinkTarget();
        job.getSpec().flink.restUrl = restUrl;
        job.getSpec().flink.job = jobId;
        job.getSpec().autoscaler.mode = AutoscalerMode.AUTO;
        job.getSpec().autoscaler.policyInterval = "3s";
        job.getSpec().autoscaler.warmUp = "2s";
        job.getSpec().autoscaler.maxParallelism = 8;
        // Not a test of the timeout: a rescale a loaded machine makes slow is waited for.
        job.getSpec().timeouts.rescale = RunnerJobHarness.NO_RESCALE_TIMEOUT.toMinutes() + "m";
        return job;
    }

    private static List<Event> events(KubernetesClient client, String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    static KubernetesClient agent(KubernetesClient client) {
        return new KubernetesClientBuilder()
                .withConfig(
                        new ConfigBuilder(client.getConfiguration()).withUserAgent(AGENT).build())
                .build();
    }

    /** The operator's API calls that the manifest's Role and ClusterRole do not grant. */
    static Set<String> deniedCalls(List<RecordedRequest> requests) throws Exception {
        ManifestAuthorizer authorizer = ManifestAuthorizer.operatorManifest();
        Set<String> denied = new TreeSet<>();
        for (RecordedRequest request : requests) {
            String agent = request.getHeader("User-Agent");
            if (agent == null || !agent.startsWith(AGENT)) {
                continue;
            }
            String path = request.getPath();
            ApiCall.of(request.getMethod(), path)
                    .filter(c -> !authorizer.allows(ApiCall.namespace(path), c))
                    .ifPresent(c -> denied.add(ApiCall.namespace(path) + ": " + c));
        }
        return denied;
    }
}
