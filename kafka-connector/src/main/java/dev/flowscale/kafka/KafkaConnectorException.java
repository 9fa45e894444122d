package dev.flowscale.kafka;

import dev.flowscale.engine.api.EngineException;

/**
 * Root of the unchecked exceptions of the Kafka connector. Messages name the topic (and partition
 * and offset where one record is at fault), the setting to check and the fix.
 */
public class KafkaConnectorException extends EngineException {
    public KafkaConnectorException(String message) {
        super(message);
    }

    public KafkaConnectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
