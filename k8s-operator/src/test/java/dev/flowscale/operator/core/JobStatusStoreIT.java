package dev.flowscale.operator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.operator.Eventually;
import dev.flowscale.operator.OptimisticMockServer;
import dev.flowscale.operator.StreamJobCrdTest;
import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Status writes through {@link JobStatusStore} on Fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class JobStatusStoreIT {
    static final String NS = "jobs";
    static final String STATUS =
            "/apis/flowscale.dev/v1alpha1/namespaces/jobs/streamjobs/wc/status";
    KubernetesClient client;
    KubernetesMockServer server;

    @BeforeEach
    void createJob() throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        client.resource(StreamJobs.wordCount(NS, "wc")).create();
    }

    /* On a server that refuses stale updates with 409, as a real one does (the stock mock does not). */
    @Test
    void concurrentWritersLoseNoChange() throws Exception {
        try (OptimisticMockServer strict = new OptimisticMockServer();
                KubernetesClient strictClient = strict.client()) {
            try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
                strictClient
                        .resource(Serialization.unmarshal(crd, CustomResourceDefinition.class))
                        .create();
            }
            strictClient.resource(StreamJobs.wordCount(NS, "wc")).create();
            JobStatusStore store = new JobStatusStore(strictClient);
            assertThat(writeConcurrently(strictClient, List.of(store, store))).hasSize(40);
        }
    }

    /*
     * The mock server does not check resourceVersion on the status subresource (a real API server
     * does), so conflicts from another writer are played by answering 409.
     */
    @Test
    void aWriteThatConflictsIsAppliedAgainToTheLatestVersion() {
        server.expect().put().withPath(STATUS).andReturn(409, conflict()).times(2);
        JobStatusStore store = new JobStatusStore(client);

        StreamJob written = store.edit(NS, "wc", status -> status.lastSavepoint = "/sp/1");

        assertThat(written.getStatus().lastSavepoint).isEqualTo("/sp/1");
        assertThat(store.latest(NS, "wc").getStatus().lastSavepoint).isEqualTo("/sp/1");
    }

    @Test
    void afterTooManyConflictsTheWriteFailsWithTheServersAnswer() {
        server.expect()
                .put()
                .withPath(STATUS)
                .andReturn(409, conflict())
                .times(JobStatusStore.ATTEMPTS);
        JobStatusStore store = new JobStatusStore(client);

        assertThatThrownBy(() -> store.edit(NS, "wc", status -> status.lastSavepoint = "/sp/1"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("has been modified");
    }

    private static Status conflict() {
        return new StatusBuilder()
                .withCode(409)
                .withReason("Conflict")
                .withMessage(
                        "Operation cannot be fulfilled"
                                + " on StreamJob \"wc\": the object has been modified")
                .build();
    }

    @Test
    void editingADeletedJobWritesNothingAndReturnsNull() {
        client.resources(StreamJob.class).inNamespace(NS).withName("wc").delete();
        JobStatusStore store = new JobStatusStore(client);
        Eventually.await("deletion", () -> store.latest(NS, "wc") == null, gone -> gone);
        assertThat(store.edit(NS, "wc", status -> status.lastSavepoint = "/x")).isNull();
    }

    /**
     * Each writer records 20 savepoint paths in the status's parallelism map (as distinct keys).
     */
    private static java.util.Set<String> writeConcurrently(
            KubernetesClient client, List<JobStatusStore> writers) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers.size(); w++) {
                JobStatusStore store = writers.get(w);
                String prefix = "w" + w + "-";
                done.add(
                        pool.submit(
                                () -> {
                                    for (int i = 0; i < 20; i++) {
                                        String key = prefix + i;
                                        store.edit(
                                                NS, "wc", status -> status.parallelism.put(key, 1));
                                    }
                                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return client.resources(StreamJob.class)
                .inNamespace(NS)
                .withName("wc")
                .get()
                .getStatus()
                .parallelism
                .keySet();
    }
}
