package dev.flowscale.kafka.testing;

import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Topic chores of the Kafka tests, against one {@link KafkaCluster}: create, fill, read back. */
public final class Topics {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaCluster broker;

    public Topics(KafkaCluster broker) {
        this.broker = broker;
    }

    /** Creates {@code topic} with {@code partitions} partitions and one replica. */
    public void create(String topic, int partitions) {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError("cannot create topic " + topic, e);
        }
    }

    /** Grows {@code topic} to {@code partitions} partitions. */
    public void grow(String topic, int partitions) {
        try (Admin admin = broker.admin()) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions)))
                    .all()
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError("cannot grow topic " + topic, e);
        }
    }

    /**
     * A producer of raw bytes that waits for every write to be acknowledged; the caller closes it.
     */
    public KafkaProducer<byte[], byte[]> producer() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Writes {@code values} to one partition of {@code topic} and waits until they are stored. */
    public void write(String topic, int partition, List<byte[]> values) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>(topic, partition, null, value));
            }
            producer.flush();
        }
    }

    /**
     * Writes the text "batch:p:i" for i below {@code perPartition} to each partition p below {@code
     * partitions}; returns what it wrote.
     */
    public List<String> writeNumbered(
            String topic, int partitions, String batch, int perPartition) {
        List<String> written = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < perPartition; i++) {
                String value = batch + ":" + p + ":" + i;
                written.add(value);
                values.add(value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            write(topic, p, values);
        }
        return written;
    }

    /** Waits until a read_committed reader sees at least {@code count} records in {@code topic}. */
    public void awaitCommitted(String topic, int count, Duration timeout) {
        Await.until(
                timeout,
                count + " records a read_committed reader sees in " + topic,
                () -> readAll(topic, true).size() >= count);
    }

    /**
     * Every record of {@code topic} a consumer with the given isolation level sees now, read from
     * the start to the end offsets of this moment.
     */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic, boolean committedOnly) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(committedOnly)) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic, TIMEOUT)
                    .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, TIMEOUT));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!reachedEnd(consumer, end) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            if (!reachedEnd(consumer, end)) {
                throw new AssertionError("could not read " + topic + " up to " + end);
            }
            return records;
        }
    }

    /**
     * The sum of {@code topic}'s last stable offsets: what read_committed readers can reach now,
     * counting one commit marker per partition and transaction besides the records.
     */
    public long stableOffsets(String topic) {
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions()
                    .forEach(
                            p ->
                                    latest.put(
                                            new TopicPartition(topic, p.partition()),
                                            OffsetSpec.latest()));
            return admin
                    .listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get()
                    .values()
                    .stream()
                    .mapToLong(o -> o.offset())
                    .sum();
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError("cannot list the offsets of " + topic, e);
        }
    }

    /** {@link #readAll}'s values as UTF-8 text. */
    public List<String> readAllText(String topic, boolean committedOnly) {
        return readAll(topic, committedOnly).stream()
                .map(r -> new String(r.value(), java.nio.charset.StandardCharsets.UTF_8))
                .toList();
    }

    private static boolean reachedEnd(
            KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        Set<TopicPartition> partitions = end.keySet();
        return partitions.stream().allMatch(tp -> consumer.position(tp, TIMEOUT) >= end.get(tp));
    }

    private KafkaConsumer<byte[], byte[]> consumer(boolean committedOnly) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                committedOnly ? "read_committed" : "read_uncommitted");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(
                config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
