package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
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
final class TestingOperator implements AutoCloseable {
    private final JobAutoscalers loops;
    private final Operator operator;

    private TestingOperator(KubernetesClient client) {
        loops =
                FlowscaleOperator.loops(
                        client,
                        new SimpleMeterRegistry(),
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
                        Clock.systemUTC());
    }

    /** Creates the checked-in CRD and starts an operator. */
    static TestingOperator start(KubernetesClient client) {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the CRD " + StreamJobCrdTest.checkedInCrd(), e);
        }
        TestingOperator started = new TestingOperator(client);
        started.operator.start();
        return started;
    }

    @Override
    public void close() {
        operator.stop();
        loops.close();
    }
}
