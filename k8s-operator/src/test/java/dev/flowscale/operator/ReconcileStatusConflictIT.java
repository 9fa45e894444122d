package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reconciler's status writes against a server that refuses a stale resourceVersion with 409, as
 * a real API server does: another writer (the autoscaler recording a decision) writes between the
 * reconciler's read and its write. On Fabric8's stock CRUD mock the stale write would pass and
 * erase the other writer's change; this test would then fail.
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
}
