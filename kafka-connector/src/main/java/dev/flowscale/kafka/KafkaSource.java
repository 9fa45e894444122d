package dev.flowscale.kafka;

import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one Kafka topic. The topic's partitions are the source's splits and the engine, not a
 * consumer group, assigns them: partition k belongs to instance k mod parallelism, at a fresh
 * start, after a restore at any parallelism, and when it is created while the job runs. Each
 * reader's offsets are part of every checkpoint and savepoint, so a restore at another parallelism
 * resumes every partition exactly where the snapshot left it: no record is skipped or read twice. A
 * reader reports its lag (end offset minus position, summed over its partitions) as its backlog.
 *
 * @param <T> the record type the deserializer makes
 */
public final class KafkaSource<T> implements SourceFunction<T> {
    private final KafkaSourceConfig config;
    private final KafkaRecordDeserializer<T> deserializer;

    /** The most partitions any reader has seen the topic with; 0 until one has looked. */
    private final AtomicInteger partitions = new AtomicInteger();

    public KafkaSource(KafkaSourceConfig config, KafkaRecordDeserializer<T> deserializer) {
        if (config == null || deserializer == null) {
            throw new KafkaConnectorException("kafka source: config and deserializer are required");
        }
        this.config = config;
        this.deserializer = deserializer;
    }

    /** Reads {@code topic}'s values as UTF-8 text. */
    public static KafkaSource<String> utf8(KafkaSourceConfig config) {
        return new KafkaSource<>(config, KafkaRecordDeserializer.utf8Values());
    }

    public KafkaSourceConfig config() {
        return config;
    }

    @Override
    public SourceReader<T> createReader(RuntimeContext context) {
        return new KafkaSourceReader<>(config, deserializer, context, null, this::sawPartitions);
    }

    @Override
    public SourceReader<T> restoreReader(RuntimeContext context, List<Object> splits) {
        List<KafkaPartitionSplit> mine = new ArrayList<>();
        for (Object split : splits) {
            KafkaPartitionSplit partition = (KafkaPartitionSplit) split;
            if (!partition.topic().equals(config.topic())) {
                throw new KafkaConnectorException(
                        "kafka source of topic '"
                                + config.topic()
                                + "': the snapshot holds offsets of topic '"
                                + partition.topic()
                                + "'; restore it with the topic it was taken with");
            }
            mine.add(partition);
        }
        return new KafkaSourceReader<>(config, deserializer, context, mine, this::sawPartitions);
    }

    @Override
    public Class<?> splitType() {
        return KafkaPartitionSplit.class;
    }

    /**
     * The topic's partition count as the readers last found it (partitions only ever get added):
     * the autoscaler caps the source's parallelism there.
     */
    @Override
    public OptionalInt splitCount() {
        int count = partitions.get();
        return count > 0 ? OptionalInt.of(count) : OptionalInt.empty();
    }

    private void sawPartitions(int count) {
        partitions.accumulateAndGet(count, Math::max);
    }

    /** Partition k to instance k mod parallelism: the rule new partitions follow too. */
    @Override
    public List<List<Object>> assignSplits(List<Object> splits, int parallelism) {
        List<List<Object>> assigned = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            assigned.add(new ArrayList<>());
        }
        for (Object split : splits) {
            assigned.get(owner(((KafkaPartitionSplit) split).partition(), parallelism)).add(split);
        }
        return assigned;
    }

    static int owner(int partition, int parallelism) {
        return partition % parallelism;
    }
}
