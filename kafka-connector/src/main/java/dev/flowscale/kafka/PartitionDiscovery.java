package dev.flowscale.kafka;

import dev.flowscale.engine.api.RuntimeContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Finds the partitions a reader owns, at its start and then every discovery interval, and assigns
 * them to its consumer at the right offset: a restored partition where the snapshot left it; at a
 * fresh start the partitions of that moment where the config says; every partition found later from
 * its start, so no record written to a new partition is missed.
 */
final class PartitionDiscovery {
    private final KafkaSourceConfig config;
    private final RuntimeContext context;
    private final String name;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final PartitionPositions positions;
    private final IntConsumer partitionCount;
    private Instant nextDiscovery = Instant.MIN;
    private boolean first = true;

    PartitionDiscovery(
            KafkaSourceConfig config,
            RuntimeContext context,
            String name,
            KafkaConsumer<byte[], byte[]> consumer,
            PartitionPositions positions,
            IntConsumer partitionCount) {
        this.config = config;
        this.context = context;
        this.name = name;
        this.consumer = consumer;
        this.positions = positions;
        this.partitionCount = partitionCount;
    }

    /** Looks for new partitions if the interval has passed since the last look. */
    void discoverIfDue(boolean freshStart) {
        Instant now = config.clock().instant();
        if (now.isBefore(nextDiscovery)) {
            return;
        }
        nextDiscovery = now.plus(config.discoveryInterval());
        Set<Integer> existing = partitionsOfTopic();
        partitionCount.accept(existing.size());
        List<Integer> fresh = new ArrayList<>();
        for (int partition : existing) {
            if (KafkaSource.owner(partition, context.parallelism()) == context.instanceIndex()
                    && !positions.owns(partition)) {
                fresh.add(partition);
            }
        }
        if (first) {
            checkRestoredExist(existing);
        }
        if (first || !fresh.isEmpty()) {
            start(fresh, first && freshStart);
        }
        positions.discovered();
        first = false;
    }

    private Set<Integer> partitionsOfTopic() {
        List<PartitionInfo> infos = consumer.partitionsFor(config.topic(), config.requestTimeout());
        if (infos == null || infos.isEmpty()) {
            throw new KafkaConnectorException(
                    name
                            + ": topic '"
                            + config.topic()
                            + "' does not exist at "
                            + config.bootstrapServers()
                            + "; create it, or fix the topic name");
        }
        return infos.stream().map(PartitionInfo::partition).collect(Collectors.toSet());
    }

    private void checkRestoredExist(Set<Integer> existing) {
        for (int partition : positions.partitions()) {
            if (!existing.contains(partition)) {
                throw new KafkaConnectorException(
                        name
                                + ": the snapshot holds an offset of partition "
                                + partition
                                + " of topic '"
                                + config.topic()
                                + "', which now has "
                                + existing.size()
                                + " partitions; was the topic deleted and created again?");
            }
        }
    }

    /**
     * Assigns every owned partition, {@code fresh} included, and seeks the partitions new to the
     * consumer: a fresh one to its start offset, a restored one to its snapshot's offset. Assigning
     * first means the offset lookups are for assigned partitions, as the consumer expects.
     */
    private void start(List<Integer> fresh, boolean useStartFrom) {
        List<TopicPartition> added =
                fresh.stream().map(p -> new TopicPartition(config.topic(), p)).toList();
        Set<TopicPartition> before = consumer.assignment();
        List<TopicPartition> owned = new ArrayList<>(added);
        positions.partitions().forEach(p -> owned.add(new TopicPartition(config.topic(), p)));
        consumer.assign(owned);
        Map<TopicPartition, Long> offsets =
                useStartFrom && config.startFrom() == KafkaSourceConfig.StartingOffsets.LATEST
                        ? consumer.endOffsets(added, config.requestTimeout())
                        : consumer.beginningOffsets(added, config.requestTimeout());
        offsets.forEach((tp, offset) -> positions.add(tp.partition(), offset));
        // assign() keeps the fetch positions (and fetched records) of the partitions it had.
        owned.stream()
                .filter(tp -> !before.contains(tp))
                .forEach(tp -> consumer.seek(tp, positions.next(tp.partition())));
    }
}
