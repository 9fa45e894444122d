package dev.flowscale.kafka;

import java.time.Duration;
import java.util.Map;

/**
 * Where and how a {@link KafkaSink} writes.
 *
 * @param bootstrapServers the brokers to contact first, {@code host:port,...}
 * @param topic the topic written
 * @param guarantee exactly once (transactions committed when a snapshot completes) or at least once
 *     (every record acknowledged before a snapshot completes)
 * @param transactionalIdPrefix starts the id of every transaction of this sink; unique per sink
 *     among the jobs writing to the same cluster
 * @param transactionTimeout how long the broker keeps a transaction open; a transaction left by a
 *     killed runner holds back read_committed readers of its partitions this long
 * @param requestTimeout how long a call to the brokers may take
 * @param clientProperties further producer settings (security, for one)
 */
public record KafkaSinkConfig(
        String bootstrapServers,
        String topic,
        Guarantee guarantee,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Duration requestTimeout,
        Map<String, String> clientProperties) {

    /** What a reader of the topic sees after failures and restores. */
    public enum Guarantee {
        EXACTLY_ONCE,
        AT_LEAST_ONCE
    }

    public KafkaSinkConfig {
        Checks.connection(
                "kafka sink", bootstrapServers, topic, "the topic to write", requestTimeout);
        Checks.require(
                "kafka sink",
                transactionalIdPrefix,
                "transactional id prefix",
                "a name unique to this sink");
        if (guarantee == null) {
            throw new KafkaConnectorException(
                    "kafka sink of topic '" + topic + "': guarantee is null; pick one");
        }
        Checks.positive("kafka sink", transactionTimeout, "transaction timeout");
        clientProperties = Checks.properties(clientProperties);
    }

    /** Exactly once into {@code topic}, transactions named after the topic, open at most 60 s. */
    public static KafkaSinkConfig exactlyOnce(String bootstrapServers, String topic) {
        return new KafkaSinkConfig(
                bootstrapServers,
                topic,
                Guarantee.EXACTLY_ONCE,
                "flowscale-" + topic,
                Duration.ofSeconds(60),
                Duration.ofSeconds(30),
                Map.of());
    }

    public KafkaSinkConfig withGuarantee(Guarantee newGuarantee) {
        return new KafkaSinkConfig(
                bootstrapServers,
                topic,
                newGuarantee,
                transactionalIdPrefix,
                transactionTimeout,
                requestTimeout,
                clientProperties);
    }

    public KafkaSinkConfig withTransactionalIdPrefix(String prefix) {
        return new KafkaSinkConfig(
                bootstrapServers,
                topic,
                guarantee,
                prefix,
                transactionTimeout,
                requestTimeout,
                clientProperties);
    }

    public KafkaSinkConfig withTransactionTimeout(Duration timeout) {
        return new KafkaSinkConfig(
                bootstrapServers,
                topic,
                guarantee,
                transactionalIdPrefix,
                timeout,
                requestTimeout,
                clientProperties);
    }

    public KafkaSinkConfig withClientProperties(Map<String, String> properties) {
        return new KafkaSinkConfig(
                bootstrapServers,
                topic,
                guarantee,
                transactionalIdPrefix,
                transactionTimeout,
                requestTimeout,
                properties);
    }
}
