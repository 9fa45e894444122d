package dev.flowscale.kafka;

import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The sink without transactions: an idempotent producer, flushed at every barrier. */
final class AtLeastOnceWriter {
    private final KafkaSinkConfig config;
    private final KafkaProducer<byte[], byte[]> producer;
    private volatile Exception sendFailure;

    AtLeastOnceWriter(KafkaSinkConfig config, String clientId) {
        this.config = config;
        this.producer =
                KafkaClients.producer(
                        config.bootstrapServers(),
                        config.clientProperties(),
                        config.requestTimeout(),
                        clientId,
                        Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true));
    }

    void send(byte[] key, byte[] value) {
        check();
        producer.send(
                new ProducerRecord<>(config.topic(), key, value),
                (metadata, error) -> {
                    if (error != null && sendFailure == null) {
                        sendFailure = error;
                    }
                });
    }

    /** Returns once every record sent so far is stored; fails if any was refused. */
    void flush() {
        producer.flush();
        check();
    }

    private void check() {
        Exception failure = sendFailure;
        if (failure != null) {
            throw new KafkaConnectorException(
                    "kafka sink: writing to topic '"
                            + config.topic()
                            + "' failed: "
                            + failure.getMessage()
                            + "; check the topic exists and the principal may write it",
                    failure);
        }
    }

    void close() {
        producer.close(config.requestTimeout());
    }
}
