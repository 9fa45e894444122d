package dev.flowscale.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns one Kafka record into the source's record type. A throw marks the record as bad: the source
 * then fails the job or sends the record to its dead-letter topic, as {@link BadRecords} says.
 */
@FunctionalInterface
public interface KafkaRecordDeserializer<T> {
    T deserialize(ConsumerRecord<byte[], byte[]> record) throws Exception;

    /** The value as UTF-8 text; a record without a value is bad. */
    static KafkaRecordDeserializer<String> utf8Values() {
        return record -> {
            if (record.value() == null) {
                throw new IllegalArgumentException("the record has no value (a tombstone)");
            }
            return Utf8.decode(record.value());
        };
    }
}
