package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A killed runner's open transaction, left on a real broker by a producer that began it, wrote to
 * the output and was never committed, aborted nor closed: the restored sink aborts it, so
 * read_committed readers see the restored run's output long before the broker would time it out.
 */
class KafkaSinkLeftoverTransactionIT extends WithKafkaBroker {
    /** The leftover's timeout: the broker would abort it only after the test gave up. */
    private static final Duration LEFTOVER_TIMEOUT = Duration.ofMinutes(10);

    /** How long the restored output may take to show: far below {@link #LEFTOVER_TIMEOUT}. */
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static final String SINK = "to-kafka";

    @Test
    void aRestoreAtLowerParallelismAbortsTheLeftoversOfEveryInstanceOfTheRunBefore()
            throws Exception {
        topics.create("left-in", 3);
        topics.create("left-out", 1);
        KafkaSinkConfig sink = KafkaSinkConfig.exactlyOnce(broker.bootstrapServers(), "left-out");
        List<String> written = new ArrayList<>(write("left-in", "before", 10));
        Path savepoint;
        try (RunningJob first = RunningJob.start(graph(sink, 3), config("left"))) {
            awaitCommitted("left-out", written.size());
            savepoint = first.stopWithSavepoint(TIMEOUT);
        }
        // The run "killed" after its savepoint had opened transactions in all three namespaces,
        // one after the next it would have used, written to the output and never ended them.
        List<KafkaProducer<byte[], byte[]>> killed = new ArrayList<>();
        Map<Integer, Long> used = lastUsedSequences(sink);
        assertThat(used).as("the first run used all three namespaces").containsOnlyKeys(0, 1, 2);
        used.forEach((instance, last) -> killed.add(leaveOpen(sink, instance, last + 2)));
        try {
            topics.write("left-out", 0, List.of(utf8("written after the leftovers")));
            written.add("written after the leftovers");
            assertThat(topics.readAllText("left-out", true))
                    .as("the leftovers hold read_committed readers back")
                    .doesNotContain("written after the leftovers");
            written.addAll(write("left-in", "after", 10));
            try (RunningJob restored =
                    RunningJob.start(graph(sink, 1), config("left"), savepoint)) {
                awaitCommitted("left-out", written.size());
            }
            assertThat(topics.readAllText("left-out", true))
                    .containsExactlyInAnyOrderElementsOf(written);
            killed.forEach(
                    producer ->
                            assertThatThrownBy(producer::commitTransaction)
                                    .as("the restore fenced the killed run's producer")
                                    .isInstanceOf(KafkaException.class));
        } finally {
            killed.forEach(p -> p.close(Duration.ZERO));
        }
    }

    private static JobGraph graph(KafkaSinkConfig sink, int sinkParallelism) {
        JobBuilder job = JobBuilder.named("leftover");
        job.source(
                        "kafka",
                        KafkaSource.utf8(
                                KafkaSourceConfig.of(broker.bootstrapServers(), "left-in")))
                .parallelism(3)
                .process(SINK, KafkaSink.of(sink, KafkaRecordSerializer.utf8()))
                .parallelism(sinkParallelism);
        return job.build();
    }

    private static JobConfig config(String name) {
        return JobConfig.defaults()
                .withCheckpointing(
                        CheckpointConfig.every(Duration.ofMillis(300), dir.resolve(name)));
    }

    /** The highest transaction number the broker knows for each of the sink's namespaces. */
    private static Map<Integer, Long> lastUsedSequences(KafkaSinkConfig sink) throws Exception {
        TransactionIds ids = new TransactionIds(sink.transactionalIdPrefix(), SINK);
        Map<Integer, Long> last = new HashMap<>();
        try (Admin admin = broker.admin()) {
            for (TransactionListing listing :
                    admin.listTransactions().all().get(30, TimeUnit.SECONDS)) {
                ids.place(listing.transactionalId())
                        .ifPresent(p -> last.merge(p.instance(), p.sequence(), Math::max));
            }
        }
        return last;
    }

    /** A transaction of the sink's namespace {@code instance}, begun, written to, left open. */
    private static KafkaProducer<byte[], byte[]> leaveOpen(
            KafkaSinkConfig sink, int instance, long sequence) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                new TransactionIds(sink.transactionalIdPrefix(), SINK).id(instance, sequence));
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) LEFTOVER_TIMEOUT.toMillis());
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(sink.topic(), utf8("uncommitted " + instance)));
        producer.flush();
        return producer;
    }

    private static List<String> write(String topic, String batch, int perPartition) {
        return topics.writeNumbered(topic, 3, batch, perPartition);
    }

    private static void awaitCommitted(String topic, int count) {
        topics.awaitCommitted(topic, count, TIMEOUT);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
