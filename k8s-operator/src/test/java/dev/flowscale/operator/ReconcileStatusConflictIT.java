package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.RescaleReporting;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reconciler's status writes against a server that behaves as a real API server does: it
 * refuses a stale resourceVersion with 409 when another writer (the autoscaler recording a
 * decision) wrote between the reconciler's read and its write, and a second create of an Event name
 * with 409 AlreadyExists. On Fabric8's stock CRUD mock the stale write would pass and erase the
 * other writer's change; the first test would then fail. A rescale whose end is in status but whose
 * report is not (status.lastRescale.reportPending: the operator stopped, or its write failed after
 * the server applied it) is reported by the next operator, once.
 */
class ReconcileStatusConflictIT {
    static final String NS = "jobs";
    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    TestingOperator operator;

    @AfterEach
    void stop() {
        operator.close();
        client.close();
        server.close();
    }

    @Test
    void aStatusWriteThatMeetsAnotherWritersNewerVersionIsAppliedAgainOnTopOfIt()
            throws IOException {
        TestingOperator.installCrd(client);
        client.resource(StreamJobs.savepointClaim(NS, "savepoints")).create();
        server.beforeNextStatusUpdate(
                "/streamjobs/wc",
                job -> {
                    ObjectNode root = (ObjectNode) job;
                    ObjectNode status =
                            root.has("status")
                                    ? (ObjectNode) root.get("status")
                                    : root.putObject("status");
                    status.putObject("desiredParallelism").put("count", 5);
                    return job;
                });
        operator = TestingOperator.electing(client, null);

        client.resource(StreamJobs.wordCount(NS, "wc")).create();

        StreamJob job =
                Eventually.await(
                        "status of jobs/wc with both writers' changes",
                        () ->
                                client.resources(StreamJob.class)
                                        .inNamespace(NS)
                                        .withName("wc")
                                        .get(),
                        j ->
                                j.getStatus() != null
                                        && j.getStatus().phase == JobPhase.Deploying
                                        && !j.getStatus().deployedParallelism.isEmpty());
        assertThat(server.conflicts()).as("the reconciler's stale write was refused").isPositive();
        assertThat(job.getStatus().desiredParallelism)
                .as("the other writer's change survives")
                .isEqualTo(Map.of("count", 5));
    }

    @Test
    void aRescaleLeftUnreportedIsReportedOnceByTheNextOperatorsAlsoWhenItsEventIsOutAlready() {
        TestingOperator.installCrd(client);
        client.resource(StreamJobs.savepointClaim(NS, "savepoints")).create();
        client.resource(StreamJobs.wordCount(NS, "wc")).create();
        // An operator wrote the rescale's end and stopped before it reported it.
        StreamJobs.editStatus(client, NS, "wc", status -> status.lastRescale = unreported());

        SimpleMeterRegistry first = new SimpleMeterRegistry();
        operator = TestingOperator.exporting(client, first);
        awaitReported();
        assertThat(downtimes(first)).as("reported by the next operator").isEqualTo(1);
        operator.close();
        // This one reported it (its Event is out) and stopped before it cleared reportPending.
        StreamJobs.editStatus(client, NS, "wc", status -> status.lastRescale.reportPending = true);

        SimpleMeterRegistry second = new SimpleMeterRegistry();
        operator = TestingOperator.exporting(client, second);
        awaitReported();

        assertThat(downtimes(second)).as("not reported a second time").isZero();
        assertThat(RunnerJobHarness.events(client, JobEvents.RESCALED))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("split=2 (in-place)"));
    }

    private static RescaleOutcome unreported() {
        RescaleOutcome outcome = new RescaleOutcome();
        outcome.time = Instant.now().toString();
        outcome.path = PendingChange.IN_PLACE;
        outcome.downtimeSeconds = 0.4;
        outcome.succeeded = true;
        outcome.from = new TreeMap<>(Map.of("split", 1));
        outcome.to = new TreeMap<>(Map.of("split", 2));
        outcome.generation = 1L;
        outcome.message = RescaleReporting.message(outcome, "through savepoint sp-1");
        outcome.reportPending = true;
        return outcome;
    }

    private StreamJob awaitReported() {
        return Eventually.await(
                "jobs/wc's last rescale reported",
                () -> client.resources(StreamJob.class).inNamespace(NS).withName("wc").get(),
                j -> j.getStatus().lastRescale.reportPending == null);
    }

    private static long downtimes(SimpleMeterRegistry registry) {
        Timer timer = registry.find(RescaleReporting.TIMER).tag("path", "in-place").timer();
        return timer == null ? 0 : timer.count();
    }
}
