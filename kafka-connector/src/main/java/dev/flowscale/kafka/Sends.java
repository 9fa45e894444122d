package dev.flowscale.kafka;

import org.apache.kafka.clients.producer.Callback;

/**
 * The first write a producer's broker refused, kept by the send callbacks (on the producer's I/O
 * thread) until the sink's own thread checks it.
 */
final class Sends {
    private final String topic;
    private volatile Exception failure;

    Sends(String topic) {
        this.topic = topic;
    }

    Callback callback() {
        return (metadata, error) -> {
            if (error != null && failure == null) {
                failure = error;
            }
        };
    }

    /** Fails naming {@code where} if a write failed. */
    void check(String where) {
        Exception first = failure;
        if (first != null) {
            throw new KafkaConnectorException(
                    "kafka sink: writing to topic '"
                            + topic
                            + "' "
                            + where
                            + " failed: "
                            + first.getMessage()
                            + "; check the topic exists and the principal may write it",
                    first);
        }
    }
}
