package dev.flowscale.kafka;

import dev.flowscale.kafka.PreparedTransaction.KeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * One Kafka transaction of the sink, with its own producer (a producer has one transaction open at
 * a time, and the sink has one open plus those waiting for their snapshot to complete), and a copy
 * of its records for the snapshot.
 */
final class SinkTransaction {
    private final KafkaSinkConfig config;
    private final String transactionalId;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<KeyValue> records = new ArrayList<>();
    private final Sends sends;

    private SinkTransaction(KafkaSinkConfig config, String transactionalId) {
        this.config = config;
        this.transactionalId = transactionalId;
        this.sends = new Sends(config.topic());
        this.producer =
                KafkaClients.producer(
                        config,
                        transactionalId,
                        Map.of(
                                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                                transactionalId,
                                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                                (int) config.transactionTimeout().toMillis()));
    }

    /**
     * Opens a transaction under {@code transactionalId}, with the topic's metadata fetched; an
     * earlier producer of that id is fenced and its open transaction aborted.
     */
    static SinkTransaction begin(KafkaSinkConfig config, String transactionalId) {
        SinkTransaction transaction = new SinkTransaction(config, transactionalId);
        try {
            transaction.producer.initTransactions();
            // The topic's metadata now, not at the first send: that send would wait for it.
            transaction.producer.partitionsFor(config.topic());
            transaction.producer.beginTransaction();
            return transaction;
        } catch (RuntimeException e) {
            transaction.producer.close(Duration.ZERO);
            throw e;
        }
    }

    String transactionalId() {
        return transactionalId;
    }

    void send(byte[] key, byte[] value) {
        records.add(new KeyValue(key, value));
        producer.send(new ProducerRecord<>(config.topic(), key, value), sends.callback());
    }

    /** Fails with the first write the broker refused, if any. */
    void checkSent() {
        sends.check("in transaction " + transactionalId);
    }

    /** Waits until every record sent is stored (but not yet visible to read_committed readers). */
    PreparedTransaction prepare(long checkpointId) {
        producer.flush();
        checkSent();
        return new PreparedTransaction(transactionalId, checkpointId, List.copyOf(records));
    }

    void commit() {
        producer.commitTransaction();
        producer.close(config.requestTimeout());
    }

    /** Aborts and closes; a snapshot that holds this transaction writes its records again. */
    void abort() {
        try {
            producer.abortTransaction();
        } catch (ProducerFencedException e) {
            // A newer run fenced this id, which aborted the transaction already.
        } finally {
            producer.close(Duration.ZERO);
        }
    }

    boolean isEmpty() {
        return records.isEmpty();
    }
}
