package dev.flowscale.kafka;

/**
 * A Kafka source's position in one partition: the offset of the next record to emit. It is what a
 * checkpoint or savepoint records for the partition, and what a restored reader seeks to.
 */
public record KafkaPartitionSplit(String topic, int partition, long nextOffset) {}
