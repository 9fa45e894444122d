package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RestartStrategy;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Kafka → engine → Kafka against a real broker, read back with read_committed. */
class KafkaSinkIT extends WithKafkaBroker {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Set by a test: the next record through the job's map fails the job once. */
    static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();

    @Test
    void exactlyOnceOutputHoldsEachRecordOnceAcrossARescaleAndAnInjectedFailure() throws Exception {
        topics.create("eo-in", 6);
        topics.create("eo-out", 3);
        List<String> written = new ArrayList<>(write("eo-in", "a", 50));
        KafkaSinkConfig sink =
                KafkaSinkConfig.exactlyOnce(broker.bootstrapServers(), "eo-out")
                        .withTransactionTimeout(Duration.ofSeconds(20));
        try (RunningJob job = start("eo", "eo-in", sink)) {
            awaitCommitted("eo-out", 100);
            job.rescale(Map.of("kafka", 3, "to-kafka", 3), TIMEOUT);
            written.addAll(write("eo-in", "b", 50));
            awaitCommitted("eo-out", written.size());
            FAIL_ONCE.set(true);
            written.addAll(write("eo-in", "c", 50));
            awaitCommitted("eo-out", written.size());
            assertThat(job.restarts()).as("the injected failure restarted the job").isEqualTo(1);
        }
        List<String> read = committed("eo-out");
        assertThat(read).hasSameSizeAs(written).doesNotHaveDuplicates();
        assertThat(new HashSet<>(read)).isEqualTo(new HashSet<>(written));
    }

    /**
     * A bounded job with no periodic checkpoint at all: only the final checkpoint at the end of its
     * input commits, so every record shows up through it or not at all.
     */
    @Test
    void aBoundedJobCommitsItsLastTransactionWithAFinalCheckpoint() throws Exception {
        topics.create("bounded-out", 1);
        KafkaSinkConfig sink =
                KafkaSinkConfig.exactlyOnce(broker.bootstrapServers(), "bounded-out");
        JobBuilder job = JobBuilder.named("bounded");
        job.source("numbers", Sources.generator(500, seq -> "n" + seq))
                .process("to-kafka", KafkaSink.of(sink, KafkaRecordSerializer.utf8()));
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(CheckpointConfig.savepointsOnly(dir.resolve("bounded")));
        try (RunningJob running = job.start(config)) {
            assertThat(running.await(TIMEOUT)).as("the job ends").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
        List<String> read = committed("bounded-out");
        assertThat(read).hasSize(500).doesNotHaveDuplicates();
        assertThat(new HashSet<>(read))
                .isEqualTo(
                        IntStream.range(0, 500).mapToObj(i -> "n" + i).collect(Collectors.toSet()));
    }

    @Test
    void atLeastOnceOutputLosesNoRecord() throws Exception {
        topics.create("alo-in", 6);
        topics.create("alo-out", 1);
        List<String> written = write("alo-in", "x", 20);
        KafkaSinkConfig sink =
                KafkaSinkConfig.exactlyOnce(broker.bootstrapServers(), "alo-out")
                        .withGuarantee(KafkaSinkConfig.Guarantee.AT_LEAST_ONCE);
        try (RunningJob job = start("alo", "alo-in", sink)) {
            Await.until(
                    TIMEOUT,
                    "every record in alo-out",
                    () -> new HashSet<>(topics.readAllText("alo-out", false)).containsAll(written));
        }
    }

    private static RunningJob start(String name, String input, KafkaSinkConfig sink) {
        JobBuilder job = JobBuilder.named(name);
        job.source(
                        "kafka",
                        KafkaSource.utf8(KafkaSourceConfig.of(broker.bootstrapServers(), input)))
                .parallelism(2)
                .map("maybe-fail", KafkaSinkIT::failOnceIfAsked)
                .parallelism(2)
                .process("to-kafka", KafkaSink.of(sink, KafkaRecordSerializer.utf8()))
                .parallelism(2);
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.every(Duration.ofMillis(300), dir.resolve(name)))
                        .withRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(200)));
        return job.start(config);
    }

    private static String failOnceIfAsked(String value) {
        if (FAIL_ONCE.compareAndSet(true, false)) {
            throw new IllegalStateException("injected failure at " + value);
        }
        return value;
    }

    /** Writes {@code perPartition} new records to each of the topic's 6 partitions. */
    private static List<String> write(String topic, String batch, int perPartition) {
        return topics.writeNumbered(topic, 6, batch, perPartition);
    }

    private static void awaitCommitted(String topic, int count) {
        topics.awaitCommitted(topic, count, TIMEOUT);
    }

    private static List<String> committed(String topic) {
        return topics.readAllText(topic, true);
    }

    @Test
    void everyWordsCountsArriveOnceEachInTheOutputTopic() throws Exception {
        topics.create("sentences", 4);
        topics.create("counts", 2);
        List<String> sentences = List.of("to be or not to be", "be quick", "not now", "to and fro");
        for (int p = 0; p < 4; p++) {
            topics.write("sentences", p, sentences.stream().map(KafkaSinkIT::utf8).toList());
        }
        JobOptions options =
                options(
                        "--kafka-bootstrap-servers", broker.bootstrapServers(),
                        "--kafka-topic", "sentences",
                        "--kafka-output-topic", "counts",
                        "--parallelism", "count=2");
        JobGraph graph = BuiltinJobs.build(KafkaWordCount.NAME, options, false);
        Map<String, Long> expected = new HashMap<>();
        sentences.forEach(
                s -> List.of(s.split(" ")).forEach(w -> expected.merge(w, 4L, Long::sum)));
        long updates = expected.values().stream().mapToLong(Long::longValue).sum();
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.every(Duration.ofMillis(300), dir.resolve("cp")));
        try (RunningJob job = RunningJob.start(graph, config)) {
            Await.until(
                    Duration.ofSeconds(60),
                    updates + " counts committed",
                    () -> topics.readAllText("counts", true).size() >= updates);
        }
        List<String> counts = topics.readAllText("counts", true);
        assertThat(counts).hasSize((int) updates).doesNotHaveDuplicates();
        Map<String, Long> last =
                counts.stream()
                        .collect(
                                Collectors.toMap(
                                        c -> c.split(" ")[0],
                                        c -> Long.parseLong(c.split(" ")[1]),
                                        Math::max));
        assertThat(last).isEqualTo(expected);
    }

    private static JobOptions options(String... args) {
        return CommandLine.populateCommand(new JobOptions(), args);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
