package dev.flowscale.operator;

import static dev.flowscale.operator.FlinkSessionTargetIT.COUNT;
import static dev.flowscale.operator.FlinkSessionTargetIT.NS;
import static dev.flowscale.operator.FlinkSessionTargetIT.SOURCE;
import static dev.flowscale.operator.FlinkSessionTargetIT.SPLIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.flink.demo.Sentences;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A leader change in the middle of a Flink session job's rescale through a savepoint: two operator
 * replicas elect a leader on the Lease; the job runs on a real Flink 2.3 MiniCluster on the default
 * scheduler (no rescale in place) behind a REST proxy that refuses {@code POST jars/:id/run} while
 * the first leader runs, so that leader stops the job with a savepoint and cannot start it again.
 * It then stops as a crashed pod does (the Lease is not released); the standby leads once the Lease
 * expired, finds the change in {@code status.pending} with its savepoint, and runs the jar from
 * that savepoint at the target: the job runs again, restored from that savepoint, with every word's
 * count exact. In profile flink-rescale.
 */
@Tag("flink-rescale")
class FlinkSessionLeaderChangeIT {
    @Test
    void aLeaderThatDiesAfterTheSavepointLeavesTheNextOneToRunTheJobFromIt() throws Exception {
        try (FlinkSessionCluster session = FlinkSessionCluster.start();
                JarRunRefusingProxy proxy = new JarRunRefusingProxy(session.flink().rest());
                OptimisticMockServer server = new OptimisticMockServer();
                KubernetesClient client = server.client()) {
            LocalFlinkCluster flink = session.flink();
            FlinkSessionSavepointIT.JarRun run =
                    FlinkSessionSavepointIT.JarRun.start(flink, "leader-change");
            FlinkRestClient rest = run.rest();
            FlinkWordCount.Settings settings = run.settings();
            String firstRun = run.firstRun();
            proxy.refuseRuns(true);
            TestingOperator.installCrd(client);
            server.guard( // answers the elector's access review, and enforces the chart's RBAC
                    new EnforcedRbac(
                            RbacInstall.clusterWide().authorizer(),
                            FlinkSessionTargetIT.AGENT,
                            RbacMatchesApiCallsIT.CREATED_OR_REPLACED));
            try (KubernetesClient clientA = FlinkSessionTargetIT.agent(client);
                    KubernetesClient clientB = FlinkSessionTargetIT.agent(client)) {
                TestingOperator first =
                        TestingOperator.electing(clientA, LeaderChangeIT.election("operator-a"));
                awaitHolder(client, "operator-a");
                try (TestingOperator second =
                        TestingOperator.electing(clientB, LeaderChangeIT.election("operator-b"))) {
                    client.resource(target(proxy, run)).create();
                    PendingChange stopped;
                    try {
                        stopped = awaitStoppedWithSavepoint(client, proxy).getStatus().pending;
                    } finally {
                        first.close(); // as a crash: the Lease stays until it expires
                    }
                    assertThat(stopped.flinkJob).isEqualTo(firstRun);
                    Eventually.await(
                            "the first run to have stopped",
                            () -> state(rest, firstRun),
                            "FINISHED"::equals);
                    proxy.refuseRuns(false);
                    awaitHolder(client, "operator-b");

                    StreamJob done = awaitRescaled(client);
                    var rescale = done.getStatus().lastRescale;
                    assertThat(rescale.succeeded).as(rescale.message).isTrue();
                    assertThat(rescale.path).isEqualTo("restart");
                    assertThat(rescale.to).isEqualTo(Map.of(SOURCE, 1, SPLIT, 2, COUNT, 2));
                    String newRun = done.getStatus().flinkJob;
                    assertThat(newRun).isNotNull().isNotEqualTo(firstRun);
                    assertThat(done.getStatus().lastSavepoint).isEqualTo(stopped.savepoint);
                    assertRunsFromTheSavepoint(rest, newRun, stopped.savepoint, rescale.to);
                    assertThat(runningRuns(rest, FlinkWordCount.jobName(settings.tag())))
                            .as("one run, never two")
                            .isEqualTo(1);
                    stopAndAssertExactCounts(rest, newRun, settings.tag());
                }
            }
        }
    }

    private static StreamJob target(JarRunRefusingProxy proxy, FlinkSessionSavepointIT.JarRun run) {
        StreamJob job = run.target(proxy.uri().toString());
        // the first leader must not roll back first, however slow a loaded machine makes it
        job.getSpec().timeouts.rescale = RunnerJobHarness.NO_RESCALE_TIMEOUT.toMinutes() + "m";
        return job;
    }

    private static StreamJob awaitStoppedWithSavepoint(
            KubernetesClient client, JarRunRefusingProxy proxy) {
        return Eventually.await(
                FlinkSessionTargetIT.WAIT,
                "the job stopped with a savepoint recorded in status.pending and its jar run"
                        + " refused",
                () -> job(client),
                j ->
                        j.getStatus() != null
                                && j.getStatus().pending != null
                                && j.getStatus().pending.savepoint != null
                                && proxy.refusedRuns() > 0);
    }

    private static StreamJob awaitRescaled(KubernetesClient client) {
        return Eventually.await(
                FlinkSessionTargetIT.WAIT.plus(LeaderChangeIT.LEASE_DURATION),
                "the new leader to end the rescale",
                () -> job(client),
                j -> j.getStatus().lastRescale != null && j.getStatus().pending == null);
    }

    /** Flink's checkpoint statistics name the savepoint the run restored from. */
    private static void assertRunsFromTheSavepoint(
            FlinkRestClient rest, String run, String savepoint, Map<String, Integer> at) {
        FlinkJobRef job = new FlinkJobRef(rest, run);
        assertThat(job.read().parallelism()).isEqualTo(at);
        assertThat(job.read().allVerticesRunning()).isTrue();
        JsonNode restored =
                Eventually.await(
                        Duration.ofSeconds(30),
                        "Flink's checkpoint statistics to show the restore",
                        () -> rest.get("jobs/" + run + "/checkpoints").path("latest"),
                        latest -> latest.path("restored").has("external_path"));
        assertThat(restored.path("restored").path("external_path").asText()).isEqualTo(savepoint);
    }

    /**
     * Stopped with a savepoint, the job has processed exactly the sentences its source emitted:
     * each word's count is its number of occurrences there, none lost, none counted twice.
     */
    private static void stopAndAssertExactCounts(FlinkRestClient rest, String run, String tag) {
        String trigger =
                rest.post("jobs/" + run + "/stop", Map.of("drain", false))
                        .path("request-id")
                        .asText();
        Eventually.await(
                Duration.ofSeconds(60),
                "the job to stop with a savepoint",
                () -> state(rest, run),
                "FINISHED"::equals);
        assertThat(trigger).isNotEmpty();
        Map<String, Long> counts = FlinkWordCount.counts(tag);
        long words = counts.values().stream().mapToLong(Long::longValue).sum();
        assertThat(words).isPositive();
        assertThat(words % Sentences.WORDS_PER_SENTENCE).isZero();
        assertThat(counts).isEqualTo(Sentences.counts(words / Sentences.WORDS_PER_SENTENCE));
    }

    private static String state(FlinkRestClient rest, String run) {
        return rest.get("jobs/" + run).path("state").asText();
    }

    private static long runningRuns(FlinkRestClient rest, String name) {
        return StreamSupport.stream(rest.get("jobs/overview").path("jobs").spliterator(), false)
                .filter(j -> name.equals(j.path("name").asText()))
                .filter(j -> "RUNNING".equals(j.path("state").asText()))
                .count();
    }

    private static StreamJob job(KubernetesClient client) {
        return client.resources(StreamJob.class).inNamespace(NS).withName("wc").get();
    }

    private static void awaitHolder(KubernetesClient client, String identity) {
        Eventually.await(
                Duration.ofSeconds(60),
                "the Lease held by " + identity,
                () ->
                        client.leases()
                                .inNamespace(RbacInstall.SYSTEM)
                                .withName(FlowscaleOperator.LEASE)
                                .get(),
                (Lease l) -> l != null && identity.equals(l.getSpec().getHolderIdentity()));
    }
}
