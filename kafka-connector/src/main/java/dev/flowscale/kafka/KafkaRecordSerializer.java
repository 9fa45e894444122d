package dev.flowscale.kafka;

/** Turns a record of the job into the key and value of a Kafka record. */
@FunctionalInterface
public interface KafkaRecordSerializer<T> {
    byte[] value(T record);

    /** The key, which picks the partition; null spreads records over partitions. */
    default byte[] key(T record) {
        return null;
    }

    /** Text as UTF-8 values without keys. */
    static KafkaRecordSerializer<String> utf8() {
        return record -> record.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
