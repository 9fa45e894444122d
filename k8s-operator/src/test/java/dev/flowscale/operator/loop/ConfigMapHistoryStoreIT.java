package dev.flowscale.operator.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.state.HistoryStore;
import dev.flowscale.autoscaler.testing.HistoryStoreContract;
import dev.flowscale.operator.OptimisticMockServer;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The autoscaler memory of a StreamJob in its ConfigMap, on a mock API server that refuses stale
 * writes: the {@link HistoryStoreContract} (a loop restarted from it decides as the loop that kept
 * running), with the next process on a client of its own as after an operator restart or a leader
 * change; the ConfigMap's owner, size and a new leader's write over a former leader's.
 */
class ConfigMapHistoryStoreIT extends HistoryStoreContract {
    static final String NS = "jobs";
    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    final KubernetesClient nextLeader = server.client();
    final StreamJob job = job("wc", UUID.randomUUID().toString());

    @AfterEach
    void close() {
        client.close();
        nextLeader.close();
        server.close();
    }

    @Override
    protected HistoryStore store() {
        return new ConfigMapHistoryStore(client, job);
    }

    @Override
    protected HistoryStore nextProcess() {
        return new ConfigMapHistoryStore(nextLeader, job);
    }

    @Test
    void theConfigMapIsOwnedByTheJobWithoutBlockingItsDeletionAndBounded() {
        store().save(history(1));

        ConfigMap stored = client.configMaps().inNamespace(NS).withName("wc-autoscaler").get();

        assertThat(stored.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(
                        o -> {
                            assertThat(o.getUid()).isEqualTo(job.getMetadata().getUid());
                            assertThat(o.getKind()).isEqualTo("StreamJob");
                            assertThat(o.getBlockOwnerDeletion()).isFalse();
                        });
        assertThat(stored.getMetadata().getLabels())
                .doesNotContainKey("app.kubernetes.io/managed-by"); // not in the reconciler's cache
        assertThat(stored.getBinaryData().get(ConfigMapHistoryStore.KEY).length())
                .isLessThanOrEqualTo(ConfigMapHistoryStore.MAX_BYTES * 4 / 3 + 4);
    }

    @Test
    void aNewLeaderOverwritesWhatAFormerLeaderWroteAfterItLoaded() {
        HistoryStore former = store();
        former.save(history(1));
        HistoryStore leader = nextProcess();
        assertThat(leader.load()).isPresent();
        former.save(history(2)); // the former leader's last tick

        leader.save(history(3));

        assertThat(nextProcess().load().orElseThrow().decisions()).hasSize(3);
    }

    @Test
    void aHistoryLeftByADeletedJobOfTheSameNameIsNotLoaded() {
        store().save(history(2));
        StreamJob recreated = job("wc", UUID.randomUUID().toString());

        assertThat(new ConfigMapHistoryStore(nextLeader, recreated).load()).isEmpty();
    }

    private static ScalingHistory history(int decisions) {
        List<ScalingDecision> ds =
                java.util.stream.IntStream.range(0, decisions)
                        .mapToObj(
                                i ->
                                        ScalingDecision.blocked(
                                                Instant.parse("2026-01-01T00:00:00Z")
                                                        .plusSeconds(30L * i),
                                                "wc",
                                                BlockReason.WARMING_UP,
                                                "warming up"))
                        .toList();
        return new ScalingHistory(ds, List.of());
    }

    private static StreamJob job(String name, String uid) {
        StreamJob job = new StreamJob();
        job.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NS).withUid(uid).build());
        return job;
    }
}
