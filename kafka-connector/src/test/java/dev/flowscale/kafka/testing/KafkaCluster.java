package dev.flowscale.kafka.testing;

import org.apache.kafka.clients.admin.Admin;

/**
 * The Kafka the tests run against: a broker in a child JVM ({@link KafkaBroker}, the default) or a
 * Kafka container ({@link KafkaContainerBroker}, with {@code -Dflowscale.kafka.broker=container}).
 */
public interface KafkaCluster extends AutoCloseable {
    /** The {@code bootstrap.servers} value. */
    String bootstrapServers();

    /** An admin client; the caller closes it. */
    Admin admin();

    /** Kills the broker as a crash would and starts it again on the same address and data. */
    void crashAndRestart();

    @Override
    void close();
}
