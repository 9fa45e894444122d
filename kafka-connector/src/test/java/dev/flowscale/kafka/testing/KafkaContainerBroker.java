package dev.flowscale.kafka.testing;

import dev.flowscale.kafka.local.LocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Apache Kafka in a container (Testcontainers' Kafka module, the {@code apache/kafka} image of the
 * same version as the tests' broker, KRaft mode): the same test bodies against Kafka as users run
 * it.
 */
public final class KafkaContainerBroker implements KafkaCluster {
    /** The image: the Kafka version of kafka-clients, as the child-JVM broker. */
    public static final String IMAGE = "apache/kafka:" + AppInfoParser.getVersion();

    private final KafkaContainer container;

    private KafkaContainerBroker(KafkaContainer container) {
        this.container = container;
    }

    /** Starts the container ({@link DockerForContainers} skips the tests without Docker). */
    public static KafkaContainerBroker start() {
        KafkaContainer container =
                new KafkaContainer(IMAGE)
                        .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                        .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                        .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
        container.start();
        return new KafkaContainerBroker(container);
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public Admin admin() {
        return LocalKafkaBroker.admin(bootstrapServers());
    }

    /**
     * Not in a container: a restarted container gets new host ports, so the job's brokers address
     * would no longer reach it; the child-JVM broker covers the crash.
     */
    @Override
    public void crashAndRestart() {
        Assumptions.abort(
                "a restarted Kafka container listens on new host ports; the broker crash runs"
                        + " against the child-JVM broker only");
    }

    @Override
    public void close() {
        container.stop();
    }
}
