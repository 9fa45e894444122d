package dev.flowscale.operator;

import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerTokens;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;

/**
 * The operator as main runs it (runners reached through their Services), on a test's API server
 * with the CRD.
 */
public final class TestingOperator implements AutoCloseable {
    private final JobAutoscalers loops;
    private final Operator operator;

    private TestingOperator(
            KubernetesClient client, LeaderElectionConfiguration election, MeterRegistry registry) {
        loops =
                FlowscaleOperator.loops(
                        client,
                        registry,
                        HttpRunnerControl::serviceAddress,
                        Duration.ofSeconds(5),
                        Clock.systemUTC());
        operator =
                FlowscaleOperator.create(
                        client,
                        loops,
                        new HttpRunnerControl(
                                HttpRunnerControl::serviceAddress,
                                Duration.ofSeconds(5),
                                new RunnerTokens(client)),
                        Clock.systemUTC(),
                        election);
    }

    /** Creates the checked-in CRD and starts an operator. */
    static TestingOperator start(KubernetesClient client) {
        installCrd(client);
        return electing(client, null);
    }

    /**
     * As {@link FlowscaleOperator#leaderElection}, in flowscale-system, but without exiting the JVM
     * when the test stops leading.
     */
    static LeaderElectionConfiguration testElection() {
        return new LeaderElectionConfiguration(
                FlowscaleOperator.LEASE,
                "flowscale-system",
                java.time.Duration.ofSeconds(15),
                java.time.Duration.ofSeconds(10),
                java.time.Duration.ofSeconds(2),
                "test-replica",
                null,
                false);
    }

    /** Starts an operator on a server that has the CRD, electing a leader (null: no election). */
    static TestingOperator electing(KubernetesClient client, LeaderElectionConfiguration election) {
        return started(new TestingOperator(client, election, new SimpleMeterRegistry()));
    }

    /**
     * Starts an operator on a server that has the CRD, exporting its metrics to {@code registry}.
     */
    static TestingOperator exporting(KubernetesClient client, MeterRegistry registry) {
        return started(new TestingOperator(client, null, registry));
    }

    private static TestingOperator started(TestingOperator operator) {
        operator.operator.start();
        return operator;
    }

    /** Creates the checked-in CRD on the test's API server. */
    public static void installCrd(KubernetesClient client) {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the CRD " + StreamJobCrdTest.checkedInCrd(), e);
        }
    }

    /** The operator's autoscaler loops. */
    JobAutoscalers loops() {
        return loops;
    }

    @Override
    public void close() {
        operator.stop();
        loops.close();
    }
}
