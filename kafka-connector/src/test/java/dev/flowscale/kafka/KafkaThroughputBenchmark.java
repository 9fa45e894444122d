package dev.flowscale.kafka;

import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.testing.KafkaBroker;
import dev.flowscale.kafka.testing.Topics;
import dev.flowscale.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Source and sink throughput against a local broker (one KRaft node in a child JVM, as in the
 * tests), median of several runs; prints the figures. Run:
 *
 * <pre>
 * mvn -pl kafka-connector test-compile exec:exec -Dexec.executable=java -Dexec.classpathScope=test \
 *     -Dexec.args="-cp %classpath dev.flowscale.kafka.KafkaThroughputBenchmark 300000 3"
 * </pre>
 */
public final class KafkaThroughputBenchmark {
    private static final int PARTITIONS = 6;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private KafkaThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("kafka-bench");
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("broker"))) {
            Topics topics = new Topics(broker);
            topics.create("bench-in", PARTITIONS);
            fill(topics, records);
            List<Double> source = new ArrayList<>();
            List<Double> sink = new ArrayList<>();
            for (int run = 0; run < runs; run++) {
                source.add(sourceRate(broker, records, run));
                topics.create("bench-out-" + run, PARTITIONS);
                sink.add(sinkRate(broker, topics, records, dir, run));
                System.out.printf(
                        "run %d: source %.0f records/s, exactly-once sink %.0f records/s%n",
                        run + 1, source.get(run), sink.get(run));
            }
            System.out.printf(
                    "median of %d runs, %d records of ~40 bytes, parallelism 2: source %.0f records/s,"
                            + " exactly-once sink %.0f records/s%n",
                    runs, records, median(source), median(sink));
        }
    }

    private static void fill(Topics topics, int records) {
        try (KafkaProducer<byte[], byte[]> producer = topics.producer()) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>("bench-in", i % PARTITIONS, null, value(i)));
            }
            producer.flush();
        }
    }

    /** KafkaSource (2 instances) into a counting sink: records / time until all are counted. */
    private static double sourceRate(KafkaBroker broker, int records, int run) throws Exception {
        Sinks.CountingSink<String> count = Sinks.counting();
        JobBuilder job = JobBuilder.named("bench-source-" + run);
        job.source(
                        "kafka",
                        KafkaSource.utf8(
                                KafkaSourceConfig.of(broker.bootstrapServers(), "bench-in")))
                .parallelism(2)
                .sink("count", count);
        long start = System.nanoTime();
        try (RunningJob running = job.start(JobConfig.defaults())) {
            Await.until(TIMEOUT, "all records read", () -> count.count() >= records);
            return records / ((System.nanoTime() - start) / 1e9);
        }
    }

    /** A generator into KafkaSink (2 instances, exactly once, checkpoints every second). */
    private static double sinkRate(
            KafkaBroker broker, Topics topics, int records, Path dir, int run) throws Exception {
        String topic = "bench-out-" + run;
        JobBuilder job = JobBuilder.named("bench-sink-" + run);
        job.source("gen", Sources.replayable(null, records, KafkaThroughputBenchmark::text))
                .parallelism(2)
                .process(
                        "to-kafka",
                        KafkaSink.of(
                                KafkaSinkConfig.exactlyOnce(broker.bootstrapServers(), topic),
                                KafkaRecordSerializer.utf8()))
                .parallelism(2);
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.every(
                                        Duration.ofSeconds(1), dir.resolve("cp-" + run)));
        long start = System.nanoTime();
        try (RunningJob running = job.start(config)) {
            // Stable offsets count commit markers too (one per partition and transaction, tens
            // here against 10^5 records), so the clock stops at most that many records early.
            Await.until(
                    TIMEOUT,
                    Duration.ofMillis(100),
                    "all records committed",
                    () -> topics.stableOffsets(topic) >= records);
            double rate = records / ((System.nanoTime() - start) / 1e9);
            Await.until(
                    TIMEOUT,
                    "every record visible",
                    () -> topics.readAll(topic, true).size() == records);
            return rate;
        }
    }

    private static String text(long i) {
        return "record-" + i + "-abcdefghijklmnopqrstuvwxyz";
    }

    private static byte[] value(long i) {
        return text(i).getBytes(StandardCharsets.UTF_8);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
