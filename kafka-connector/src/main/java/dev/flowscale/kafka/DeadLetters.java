package dev.flowscale.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Copies bad records to the dead-letter topic, with headers naming where each came from and why it
 * was rejected. Each copy is acknowledged before the source moves past the record, so a checkpoint
 * never holds an offset past a record that is neither emitted nor stored.
 */
final class DeadLetters implements AutoCloseable {
    static final String TOPIC_HEADER = "flowscale.source.topic";
    static final String PARTITION_HEADER = "flowscale.source.partition";
    static final String OFFSET_HEADER = "flowscale.source.offset";
    static final String ERROR_HEADER = "flowscale.error";

    private final KafkaSourceConfig config;
    private final String clientId;
    private KafkaProducer<byte[], byte[]> producer;

    DeadLetters(KafkaSourceConfig config, String clientId) {
        this.config = config;
        this.clientId = clientId;
    }

    void send(ConsumerRecord<byte[], byte[]> bad, Exception why) throws InterruptedException {
        RecordHeaders headers = new RecordHeaders(bad.headers().toArray());
        headers.add(TOPIC_HEADER, utf8(bad.topic()));
        headers.add(PARTITION_HEADER, utf8(Integer.toString(bad.partition())));
        headers.add(OFFSET_HEADER, utf8(Long.toString(bad.offset())));
        headers.add(ERROR_HEADER, utf8(String.valueOf(why)));
        String topic = config.badRecords().deadLetterTopic();
        try {
            producer()
                    .send(new ProducerRecord<>(topic, null, bad.key(), bad.value(), headers))
                    .get(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            throw new KafkaConnectorException(
                    "cannot write the bad record at "
                            + Where.of(bad)
                            + " to the dead-letter topic '"
                            + topic
                            + "': "
                            + (e.getCause() == null ? e : e.getCause())
                            + "; create that topic or let bad records fail the job",
                    e);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer =
                    KafkaClients.producer(
                            config.bootstrapServers(),
                            config.clientProperties(),
                            config.requestTimeout(),
                            clientId + "-dead-letters",
                            Map.of());
        }
        return producer;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close();
        }
    }
}
