package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.state.HistoryCodec;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.DecisionRecord;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerTokens;
import dev.flowscale.policy.api.ScalingHistory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two operator replicas on one mock API server, electing a leader on the Lease as the chart
 * installs them (JOSDK 5.3.2's LeaderElectionManager over Fabric8 7.6.1's LeaderElector, every
 * request authorized by the chart's cluster-wide RBAC), with the runner played by a real engine
 * runner process ({@link LocalKubelet}). The leader is stopped as a crashed pod stops: the SDK
 * cancels its elector without releasing the Lease ({@code releaseOnCancel} false), so the other
 * replica takes over only once the Lease has expired, as in a cluster.
 */
class LeaderChangeIT {
    static final String NS = RunnerJobHarness.NS;
    static final String AGENT = "flowscale-operator-replica";
    static final Duration LEASE_DURATION = Duration.ofSeconds(15);

    static final String BUDGET_USED =
            "rescale budget used: 1 rescales started in the last hour (at most 1)";
    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    LocalKubelet kubelet;
    Replica first;
    Replica second;

    @TempDir Path dir;

    /** One operator replica: its own client, autoscaler loops and operator. */
    record Replica(KubernetesClient client, JobAutoscalers loops, Operator operator) {
        /** Stops it as a crash does: nothing is released or written on the way out. */
        void crash() {
            operator.stop();
            loops.close();
            client.close();
        }
    }

    @AfterEach
    void stop() {
        for (Replica r : new Replica[] {first, second}) {
            if (r != null) {
                r.crash();
            }
        }
        kubelet.close();
        client.close();
        server.close();
    }

    @Test
    void theReplicaThatLeadsAfterTheLeaseExpiredKeepsTheRescaleBudgetItsPredecessorUsed()
            throws IOException {
        start();
        first = replica("operator-a");
        assertThat(awaitHolder("operator-a")).isNotNull();
        second = replica("operator-b");
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        NS, "wc", AutoscalerMode.AUTO, dir.resolve("savepoints"));
        job.getSpec().autoscaler.maxRescalesPerHour = 1;
        client.resource(job).create();

        // The first leader decides to scale the bottleneck up, using the hour's one rescale, keeps
        // that in the job's autoscaler memory, and starts the rescale; it stops before the end.
        Eventually.await(
                RunnerJobHarness.WAIT,
                "a rescale in progress in status and in the job's autoscaler memory",
                () ->
                        Optional.of(job())
                                .filter(j -> j.getStatus().pending != null)
                                .flatMap(j -> storedHistory()),
                h -> h.isPresent() && h.get().rescaleInProgress());
        first.crash();
        first = null;
        Instant lastRenewal = renewTime(lease());
        Lease taken = awaitHolder("operator-b");
        assertThat(taken.getSpec().getAcquireTime().toInstant())
                .as("the second replica leads only once the first one's Lease expired")
                .isAfterOrEqualTo(lastRenewal.plus(LEASE_DURATION));

        // The new leader carries the rescale on from status; its loop, resumed from the memory,
        // learns that it ended.
        StreamJob rescaled =
                RunnerJobHarness.awaitJob(
                        client,
                        j ->
                                j.getStatus().lastRescale != null
                                        && j.getStatus().lastRescale.succeeded
                                        && j.getStatus().pending == null);
        int split = rescaled.getStatus().parallelism.get("split");
        assertThat(split).isGreaterThan(1);

        // Twice the load: the new leader's loop needs a larger split, but the budget its
        // predecessor used holds it back; a loop that had forgotten it would rescale, and one that
        // never learned the rescale ended would hold every decision back as RESCALE_IN_PROGRESS.
        RunnerJobHarness.editSpec(
                client,
                j -> j.getSpec().job.args = List.of("--rate", "3000", "--cost", "split=sleep:2ms"));
        StreamJob held =
                Eventually.await(
                        Duration.ofSeconds(120),
                        "a decision of the new leader held back by the rescale budget",
                        () ->
                                client.resources(StreamJob.class)
                                        .inNamespace(NS)
                                        .withName("wc")
                                        .get(),
                        j -> j.getStatus().history.stream().anyMatch(LeaderChangeIT::budgetUsed));
        assertThat(held.getStatus().lastRescale.time)
                .as("no rescale after the first one")
                .isEqualTo(rescaled.getStatus().lastRescale.time);
        assertThat(held.getStatus().parallelism).containsEntry("split", split);
        assertThat(held.getStatus().phase).isEqualTo(JobPhase.Running);
        assertThat(RunnerJobHarness.args(client)).contains("--rate 3000");
    }

    private static boolean budgetUsed(DecisionRecord d) {
        return d.reasons.stream().anyMatch(r -> r.contains(BUDGET_USED));
    }

    private void start() throws IOException {
        TestingOperator.installCrd(client);
        server.guard(
                new EnforcedRbac(
                        RbacInstall.clusterWide().authorizer(),
                        AGENT,
                        RbacMatchesApiCallsIT.CREATED_OR_REPLACED));
        kubelet = LocalKubelet.ofWordCount(client, NS, dir, args -> true);
    }

    /** Starts a replica whose requests the chart's RBAC authorizes, electing as {@code name}. */
    private Replica replica(String name) {
        KubernetesClient own =
                new KubernetesClientBuilder()
                        .withConfig(
                                new ConfigBuilder(client.getConfiguration())
                                        .withUserAgent(AGENT)
                                        .build())
                        .build();
        JobAutoscalers loops =
                FlowscaleOperator.loops(
                        own,
                        new SimpleMeterRegistry(),
                        j -> kubelet.address(),
                        RunnerJobHarness.NO_RESCALE_TIMEOUT,
                        Clock.systemUTC());
        Operator operator =
                FlowscaleOperator.create(
                        own,
                        loops,
                        new HttpRunnerControl(
                                j -> kubelet.address(),
                                Duration.ofSeconds(10),
                                new RunnerTokens(own)),
                        Clock.systemUTC(),
                        election(name),
                        Set.of(),
                        AutoscalerDefaults.builtIn());
        operator.start();
        return new Replica(own, loops, operator);
    }

    /** The chart's election (Lease in flowscale-system), as {@code identity}, not exiting. */
    static LeaderElectionConfiguration election(String identity) {
        return new LeaderElectionConfiguration(
                FlowscaleOperator.LEASE,
                RbacInstall.SYSTEM,
                LEASE_DURATION,
                Duration.ofSeconds(10),
                Duration.ofSeconds(2),
                identity,
                null,
                false);
    }

    private StreamJob job() {
        return client.resources(StreamJob.class).inNamespace(NS).withName("wc").get();
    }

    private Lease lease() {
        return client.leases()
                .inNamespace(RbacInstall.SYSTEM)
                .withName(FlowscaleOperator.LEASE)
                .get();
    }

    private Lease awaitHolder(String identity) {
        return Eventually.await(
                Duration.ofSeconds(60),
                "the Lease held by " + identity,
                this::lease,
                l -> l != null && identity.equals(l.getSpec().getHolderIdentity()));
    }

    private static Instant renewTime(Lease lease) {
        return lease.getSpec().getRenewTime().toInstant();
    }

    /** The autoscaler memory stored for jobs/wc, decoded as the loops read it. */
    private Optional<ScalingHistory> storedHistory() {
        ConfigMap stored = client.configMaps().inNamespace(NS).withName("wc-autoscaler").get();
        if (stored == null || stored.getBinaryData() == null) {
            return Optional.empty();
        }
        String data = stored.getBinaryData().get("history.json.gz");
        return data == null
                ? Optional.empty()
                : Optional.of(
                        new HistoryCodec(512 * 1024).decode(Base64.getDecoder().decode(data)));
    }
}
