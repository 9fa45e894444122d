package dev.flowscale.kafka;

import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The sink without transactions: an idempotent producer, flushed at every barrier. */
final class AtLeastOnceWriter {
    private final KafkaSinkConfig config;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Sends sends;

    AtLeastOnceWriter(KafkaSinkConfig config, String clientId) {
        this.config = config;
        this.sends = new Sends(config.topic());
        this.producer =
                KafkaClients.producer(
                        config, clientId, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true));
    }

    void send(byte[] key, byte[] value) {
        check();
        producer.send(new ProducerRecord<>(config.topic(), key, value), sends.callback());
    }

    /** Returns once every record sent so far is stored; fails if any was refused. */
    void flush() {
        producer.flush();
        check();
    }

    private void check() {
        sends.check("without a transaction");
    }

    void close() {
        producer.close(config.requestTimeout());
    }
}
