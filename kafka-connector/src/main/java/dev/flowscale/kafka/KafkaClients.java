package dev.flowscale.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The connector's Kafka clients, and the one place that turns client errors into clear ones. */
final class KafkaClients {
    /**
     * The clients log every client's whole configuration at INFO, a screen per consumer; unless the
     * user configured java.util.logging, only their warnings show. Held here: JUL keeps loggers
     * weakly.
     */
    private static final Logger CLIENT_LOGS = quietClientLogs();

    private KafkaClients() {}

    private static Logger quietClientLogs() {
        Logger logger = Logger.getLogger("org.apache.kafka");
        if (System.getProperty("java.util.logging.config.file") == null
                && System.getProperty("java.util.logging.config.class") == null) {
            logger.setLevel(Level.WARNING);
        }
        return logger;
    }

    /**
     * A consumer of raw bytes that takes its partitions by assignment (never from a group) and
     * commits nothing by itself; metadata refreshes at the discovery interval, so new partitions
     * are seen that soon.
     */
    static KafkaConsumer<byte[], byte[]> consumer(KafkaSourceConfig config, String clientId) {
        Properties properties =
                common(
                        config.bootstrapServers(),
                        config.clientProperties(),
                        config.requestTimeout(),
                        clientId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(
                ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                (int) config.discoveryInterval().toMillis());
        if (config.groupId() != null) {
            properties.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        }
        return new KafkaConsumer<>(
                properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** The most records one poll of the source's consumer returns. */
    static int maxPollRecords(KafkaSourceConfig config) {
        String set = config.clientProperties().get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
        return set == null ? ConsumerConfig.DEFAULT_MAX_POLL_RECORDS : Integer.parseInt(set.trim());
    }

    /** A producer for {@code sink}; {@code extra} adds or overrides settings. */
    static KafkaProducer<byte[], byte[]> producer(
            KafkaSinkConfig sink, String clientId, Map<String, ?> extra) {
        return producer(
                sink.bootstrapServers(),
                sink.clientProperties(),
                sink.requestTimeout(),
                clientId,
                extra);
    }

    /**
     * A producer of raw bytes; {@code extra} adds or overrides settings (transactions, for one).
     */
    static KafkaProducer<byte[], byte[]> producer(
            String bootstrapServers,
            Map<String, String> clientProperties,
            Duration requestTimeout,
            String clientId,
            Map<String, ?> extra) {
        Properties properties =
                common(bootstrapServers, clientProperties, requestTimeout, clientId);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, requestTimeout.toMillis());
        properties.putAll(extra);
        return new KafkaProducer<>(
                properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** An admin client of {@code sink}'s brokers, with its security settings. */
    static Admin admin(KafkaSinkConfig sink) {
        return Admin.create(
                common(
                        sink.bootstrapServers(),
                        sink.clientProperties(),
                        sink.requestTimeout(),
                        "flowscale-sink-admin-" + sink.topic()));
    }

    /**
     * Waits for an admin call of {@code sink} about its transactions at most the request timeout; a
     * failure says what was being done and what to check.
     */
    static <T> T await(KafkaSinkConfig sink, KafkaFuture<T> call, String doing)
            throws InterruptedException {
        try {
            return call.get(sink.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new KafkaConnectorException(
                    "kafka sink of topic '"
                            + sink.topic()
                            + "': cannot "
                            + doing
                            + ": "
                            + (e.getCause() == null ? e : e.getCause())
                            + "; check that the brokers at "
                            + sink.bootstrapServers()
                            + " run and that the principal may describe and write the"
                            + " transactional ids starting '"
                            + sink.transactionalIdPrefix()
                            + "'",
                    e);
        }
    }

    private static Properties common(
            String bootstrapServers,
            Map<String, String> clientProperties,
            Duration requestTimeout,
            String clientId) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        properties.put(
                CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) requestTimeout.toMillis());
        return properties;
    }

    /**
     * {@code failure} as a connector error that says what was being done, against which brokers,
     * and what to check.
     */
    static KafkaConnectorException explain(
            String doing, String bootstrapServers, RuntimeException failure) {
        if (failure instanceof KafkaConnectorException known) {
            return known;
        }
        String fix;
        if (failure instanceof TimeoutException) {
            fix =
                    "no broker answered at "
                            + bootstrapServers
                            + " in time; check bootstrap servers and that the brokers run and are reachable";
        } else if (failure instanceof AuthenticationException) {
            fix =
                    "authentication failed at "
                            + bootstrapServers
                            + "; check the security settings (KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_*)";
        } else if (failure instanceof AuthorizationException) {
            fix = "not authorized at " + bootstrapServers + "; grant the principal access";
        } else {
            fix = "Kafka at " + bootstrapServers + " said: " + failure.getMessage();
        }
        return new KafkaConnectorException(
                doing + ": " + fix + " (" + failure.getClass().getSimpleName() + ")", failure);
    }
}
