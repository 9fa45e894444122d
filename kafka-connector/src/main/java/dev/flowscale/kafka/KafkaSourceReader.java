package dev.flowscale.kafka;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.runner.api.MetricName;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.IntConsumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * One Kafka source instance: owns the partitions k with k mod parallelism = its index, reads them
 * with an assigned (never group-managed) consumer, and tracks per partition the next offset to
 * emit, which its snapshots record. Fetches never wait, so time with nothing to read counts as
 * waiting for input, not as useful time.
 */
final class KafkaSourceReader<T> implements SourceReader<T> {
    private static final Duration END_REFRESH = Duration.ofMillis(100);

    /**
     * From one end query's answer to the next request: a window's arrival rate is as exact as its
     * edges' ends are current, and a 3 s window then errs by at most about 7 %.
     */
    private static final Duration END_QUERY = Duration.ofMillis(200);

    /** A broker request outstanding this long means the lag is no longer known. */
    static final Duration NO_ANSWER = Duration.ofSeconds(2);

    private final KafkaSourceConfig config;
    private final KafkaRecordDeserializer<T> deserializer;
    private final String name;
    private final boolean freshStart;
    private final PartitionPositions positions;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final DeadLetters deadLetters;
    private final PartitionDiscovery discovery;
    private Iterator<ConsumerRecord<byte[], byte[]>> buffered = Collections.emptyIterator();
    private Instant nextEndRefresh = Instant.MIN;
    private final BrokerWatch brokers;
    private final EndOffsetQuery ends;
    private final MeterRegistry meters;
    private final Gauge lag;

    /** The most records one consumer poll returns ({@code max.poll.records}). */
    private final int fullFetch;

    /**
     * @param restored the splits of a restore, or null for a fresh start
     * @param partitionCount told the topic's partition count at each discovery
     */
    KafkaSourceReader(
            KafkaSourceConfig config,
            KafkaRecordDeserializer<T> deserializer,
            RuntimeContext context,
            List<KafkaPartitionSplit> restored,
            IntConsumer partitionCount) {
        this.config = config;
        this.deserializer = deserializer;
        this.name =
                "kafka source '"
                        + context.operatorId()
                        + "' instance "
                        + context.instanceIndex()
                        + " of job '"
                        + context.jobName()
                        + "'";
        this.freshStart = restored == null;
        this.positions = new PartitionPositions(config.topic());
        if (restored != null) {
            restored.forEach(split -> positions.add(split.partition(), split.nextOffset()));
        }
        String clientId =
                context.jobName() + "-" + context.operatorId() + "-" + context.instanceIndex();
        this.consumer = KafkaClients.consumer(config, clientId);
        this.deadLetters = new DeadLetters(config, clientId);
        this.brokers = new BrokerWatch(config.clock(), NO_ANSWER);
        this.ends = new EndOffsetQuery(config, clientId, NO_ANSWER, positions, END_QUERY);
        this.discovery =
                new PartitionDiscovery(config, context, name, consumer, positions, partitionCount);
        this.meters = context.meterRegistry();
        this.lag = lagGauge(context);
        this.fullFetch = KafkaClients.maxPollRecords(config);
    }

    /**
     * The lag as a gauge tagged with the topic, which the engine's backlog gauge lacks: the
     * dashboard sums it by topic. NaN while the reader has no lag signal.
     */
    private Gauge lagGauge(RuntimeContext context) {
        return Gauge.builder(MetricName.KAFKA_LAG.micrometer(), this, KafkaSourceReader::lagOrNaN)
                .baseUnit(MetricName.KAFKA_LAG.unit())
                .description(MetricName.KAFKA_LAG.description())
                .tags(
                        "job",
                        context.jobName(),
                        "operator",
                        context.operatorId(),
                        "instance",
                        Integer.toString(context.instanceIndex()),
                        "topic",
                        config.topic())
                .strongReference(true)
                .register(meters);
    }

    @Override
    public boolean fetchesApart() {
        return true;
    }

    /**
     * Finds new partitions and log ends when due, and, with nothing buffered, takes what the
     * consumer has received (it never waits). The share of the fetch counted useful is the records
     * it brought over a full fetch's: the discovery and end refreshes are costs per second, the
     * consumer's poll one per call.
     */
    @Override
    public double fetch(int max) {
        try {
            brokers.asking();
            try {
                discovery.discoverIfDue(freshStart);
                refreshEnds();
            } finally {
                brokers.answered();
            }
            if (buffered.hasNext()) {
                return 0;
            }
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
            buffered = records.iterator();
            return Math.min(1.0, (double) records.count() / Math.min(max, fullFetch));
        } catch (KafkaException e) {
            throw explained(e);
        }
    }

    /** Emits what the last fetches brought, up to {@code max} records. */
    @Override
    public int poll(Collector<T> out, int max) throws Exception {
        try {
            int emitted = 0;
            while (emitted < max && buffered.hasNext()) {
                ConsumerRecord<byte[], byte[]> record = buffered.next();
                if (emit(record, out)) {
                    emitted++;
                }
                positions.passed(record.partition(), record.offset());
            }
            return emitted;
        } catch (KafkaException e) {
            throw explained(e); // a dead-letter write the brokers refused
        }
    }

    private KafkaConnectorException explained(KafkaException e) {
        return KafkaClients.explain(
                name + " reading topic '" + config.topic() + "'", config.bootstrapServers(), e);
    }

    /**
     * Learns each partition's end from the consumer's fetch responses (no extra request). They are
     * not enough: a consumer with records still buffered does not fetch that partition again, and a
     * source blocked downstream does not call this, so the end query ({@link EndOffsetQuery}) asks
     * the brokers on its own thread and schedule, keeping the lag, and so the arrival rate the
     * policy derives from it, current.
     */
    private void refreshEnds() {
        ends.check();
        Instant now = config.clock().instant();
        if (now.isBefore(nextEndRefresh)) {
            return;
        }
        nextEndRefresh = now.plus(END_REFRESH);
        for (int partition : positions.partitions()) {
            TopicPartition tp = new TopicPartition(config.topic(), partition);
            var lag = consumer.currentLag(tp);
            if (lag.isPresent()) {
                positions.endAt(partition, consumer.position(tp) + lag.getAsLong());
            }
        }
    }

    private boolean emit(ConsumerRecord<byte[], byte[]> record, Collector<T> out)
            throws InterruptedException {
        T value;
        try {
            value = deserializer.deserialize(record);
        } catch (Exception e) {
            if (config.badRecords().failJob()) {
                throw new KafkaConnectorException(
                        name
                                + ": cannot deserialize the record at "
                                + Where.of(record)
                                + ": "
                                + e.getMessage()
                                + "; fix what writes the topic, or send such records to a"
                                + " dead-letter topic (bad records: dead-letter:<topic>)",
                        e);
            }
            deadLetters.send(record, e);
            return false;
        }
        out.collect(value);
        return true;
    }

    /**
     * The summed lag of this reader's partitions; null (no backlog signal) until it has found its
     * partitions and learnt every one's log end, and while a request to the brokers has gone
     * unanswered for {@link #NO_ANSWER} (the ends it knows may be stale by then).
     */
    @Override
    public Long backlog() {
        if (brokers.silent() || ends.silent()) {
            return null;
        }
        OptionalLong lag = positions.totalLag();
        return lag.isPresent() ? lag.getAsLong() : null;
    }

    /** The lag as a gauge reads it: NaN (no sample) while there is no backlog signal. */
    private double lagOrNaN() {
        Long backlog = backlog();
        return backlog == null ? Double.NaN : backlog;
    }

    /** Lag per partition, for the partitions whose end is known. */
    Map<Integer, Long> lagByPartition() {
        return positions.lag();
    }

    @Override
    public List<?> snapshotSplits() {
        List<KafkaPartitionSplit> splits = positions.splits();
        if (config.groupId() != null && !splits.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            splits.forEach(
                    s ->
                            offsets.put(
                                    new TopicPartition(s.topic(), s.partition()),
                                    new OffsetAndMetadata(s.nextOffset())));
            // For lag monitoring only: the snapshot, not the group, is where a restore resumes.
            consumer.commitAsync(offsets, null);
        }
        return splits;
    }

    @Override
    public void close() {
        meters.remove(lag);
        try (deadLetters;
                ends) {
            // No wait: a fetch parked at the broker (up to fetch.max.wait.ms) would only lengthen
            // the downtime of a rescale, and the source commits nothing on close.
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
    }
}
