package dev.flowscale.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Where and how a {@link KafkaSource} reads.
 *
 * @param bootstrapServers the brokers to contact first, {@code host:port,...}
 * @param topic the topic read; every partition, including partitions added while the job runs
 * @param groupId the consumer group the source commits its checkpointed offsets to, so that lag
 *     tools can watch it; null to commit nothing. Offsets are restored from snapshots, never from
 *     the group, and partitions are never assigned by the group.
 * @param startFrom where a fresh start reads the partitions that exist then (partitions created
 *     later are read from their start)
 * @param badRecords what to do with a record the deserializer rejects
 * @param discoveryInterval how often each reader looks for new partitions
 * @param requestTimeout how long a call to the brokers may take before the source reports them
 *     unreachable
 * @param clientProperties further consumer and producer settings (security, for one)
 * @param clock when discovery is due
 */
public record KafkaSourceConfig(
        String bootstrapServers,
        String topic,
        String groupId,
        StartingOffsets startFrom,
        BadRecords badRecords,
        Duration discoveryInterval,
        Duration requestTimeout,
        Map<String, String> clientProperties,
        Clock clock) {

    /** Where a fresh start reads a partition. */
    public enum StartingOffsets {
        EARLIEST,
        LATEST
    }

    public KafkaSourceConfig {
        Checks.connection(
                "kafka source", bootstrapServers, topic, "the topic to read", requestTimeout);
        if (startFrom == null || badRecords == null || clock == null) {
            throw new KafkaConnectorException(
                    "kafka source of topic '"
                            + topic
                            + "': startFrom, badRecords and clock are required");
        }
        Checks.positive("kafka source", discoveryInterval, "discovery interval");
        clientProperties = Checks.properties(clientProperties);
    }

    /**
     * Reads {@code topic} from its start; fails at a bad record; looks for partitions every 10 s.
     */
    public static KafkaSourceConfig of(String bootstrapServers, String topic) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                null,
                StartingOffsets.EARLIEST,
                BadRecords.fail(),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Map.of(),
                Clock.systemUTC());
    }

    public KafkaSourceConfig withGroupId(String group) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                group,
                startFrom,
                badRecords,
                discoveryInterval,
                requestTimeout,
                clientProperties,
                clock);
    }

    public KafkaSourceConfig withStartFrom(StartingOffsets start) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                groupId,
                start,
                badRecords,
                discoveryInterval,
                requestTimeout,
                clientProperties,
                clock);
    }

    public KafkaSourceConfig withBadRecords(BadRecords bad) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                groupId,
                startFrom,
                bad,
                discoveryInterval,
                requestTimeout,
                clientProperties,
                clock);
    }

    public KafkaSourceConfig withDiscoveryInterval(Duration interval) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                groupId,
                startFrom,
                badRecords,
                interval,
                requestTimeout,
                clientProperties,
                clock);
    }

    public KafkaSourceConfig withRequestTimeout(Duration timeout) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                groupId,
                startFrom,
                badRecords,
                discoveryInterval,
                timeout,
                clientProperties,
                clock);
    }

    public KafkaSourceConfig withClientProperties(Map<String, String> properties) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                groupId,
                startFrom,
                badRecords,
                discoveryInterval,
                requestTimeout,
                properties,
                clock);
    }

    public KafkaSourceConfig withClock(Clock newClock) {
        return new KafkaSourceConfig(
                bootstrapServers,
                topic,
                groupId,
                startFrom,
                badRecords,
                discoveryInterval,
                requestTimeout,
                clientProperties,
                newClock);
    }
}
