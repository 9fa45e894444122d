package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.testsupport.Ports;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What the operator ITs with a real runner read and change: the StreamJob jobs/wc, its runner
 * Deployment, Events.
 */
final class RunnerJobHarness {
    static final String NS = "jobs";
    // Generous: a runner process starting on a machine busy with other builds can take a minute.
    static final Duration WAIT = Duration.ofSeconds(180);

    /**
     * The rescale timeout of an operator on the system clock: longer than any test runs, so a
     * runner a loaded machine starts slowly is waited for, never rolled back. A test of the timeout
     * runs its operator on a {@link JumpingClock} and jumps past this once its condition holds.
     */
    static final Duration NO_RESCALE_TIMEOUT = Duration.ofHours(1);

    /**
     * The rescale timeout of an operator on a {@link dev.flowscale.policy.sim.ManualClock}: it
     * passes only when the test advances that clock.
     */
    static final Duration MANUAL_CLOCK_RESCALE_TIMEOUT = Duration.ofSeconds(20);

    private RunnerJobHarness() {}

    /** As a user's edit of jobs/wc: read, change, write against that version; again after a 409. */
    static void editSpec(KubernetesClient client, Consumer<StreamJob> change) {
        StreamJobs.edit(client, NS, "wc", change);
    }

    static StreamJob awaitJob(KubernetesClient client, Predicate<StreamJob> check) {
        return Eventually.await(
                WAIT,
                "StreamJob jobs/wc",
                () -> client.resources(StreamJob.class).inNamespace(NS).withName("wc").get(),
                j -> j.getStatus() != null && check.test(j));
    }

    static List<Event> events(KubernetesClient client, String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    static Deployment deployment(KubernetesClient client) {
        return client.apps().deployments().inNamespace(NS).withName("wc-runner").get();
    }

    static String args(KubernetesClient client) {
        return String.join(
                " ",
                deployment(client)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getArgs());
    }

    /**
     * An annotation change of jobs/wc: the reconciler is not generation-aware, so it makes a pass.
     * The operator writes the object too (finalizers, status), so the edit is made again on a fresh
     * copy after a 409, as kubectl's users do.
     */
    static void poke(KubernetesClient client, String value) {
        StreamJobs.edit(
                client, NS, "wc", j -> j.getMetadata().getAnnotations().put("test/poke", value));
    }

    /**
     * Checks {@code check} stays true for {@code period} (a negative claim needs a period; polled,
     * not slept).
     */
    static void holdFor(Duration period, BooleanSupplier check, String what) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() < end) {
            assertThat(check.getAsBoolean()).as(what).isTrue();
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    /** Every status of jobs/wc that {@code server} stored, oldest first. */
    static List<StreamJobStatus> statusWrites(OptimisticMockServer server) {
        return server.storedStatuses("/streamjobs/wc").stream()
                .map(json -> Serialization.unmarshal(json, StreamJob.class).getStatus())
                .toList();
    }

    static int freePort() throws IOException {
        return Ports.free();
    }
}
