package dev.flowscale.kafka.testing;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Disables a Kafka test class, with the reason in the report, when it is to run against a Kafka
 * container and no Docker engine answers (as {@code @Testcontainers(disabledWithoutDocker = true)},
 * but only in the container variant).
 */
final class DockerForContainers implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (!WithKafkaBroker.containerVariant()) {
            return ConditionEvaluationResult.enabled("the broker runs in a child JVM");
        }
        return DockerClientFactory.instance().isDockerAvailable()
                ? ConditionEvaluationResult.enabled("a Docker engine answers")
                : ConditionEvaluationResult.disabled(
                        "no Docker engine: the Testcontainers variant of the Kafka tests is"
                                + " skipped");
    }
}
