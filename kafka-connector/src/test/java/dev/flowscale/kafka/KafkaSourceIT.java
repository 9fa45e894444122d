package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.runner.RunnerViews;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RestartStrategy;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.Ports;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The Kafka source inside running jobs of the engine, against a real broker. */
class KafkaSourceIT extends WithKafkaBroker {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final byte[] NOT_UTF8 = {(byte) 0xC3, (byte) 0x28};

    @Test
    void aPartitionAddedWhileTheJobRunsIsReadFromItsStartAndCountsAsASplit() throws Exception {
        topics.create("growing", 2);
        writeNumbered("growing", 0, 2, 10);
        Sinks.CollectingSink<String> sink = Sinks.collecting();
        try (RunningJob job = start("growing", config("growing"), sink, 2, JobConfig.defaults())) {
            awaitRecords(job, sink, 20);
            assertThat(splitsInTheRunnerView(job)).as("the source's splits").isEqualTo(2);
            topics.grow("growing", 5);
            writeNumbered("growing", 2, 5, 10);
            awaitRecords(job, sink, 50);
            assertThat(new HashSet<>(sink.records())).hasSize(50);
            assertThat(splitsInTheRunnerView(job)).as("the source's splits").isEqualTo(5);
            assertThat(RunnerViews.job(job, "run").operators().get(1).splits())
                    .as("a sink has no splits")
                    .isNull();
        }
    }

    /** What the runner API tells the autoscaler the source's split count is. */
    private static Integer splitsInTheRunnerView(RunningJob job) {
        return RunnerViews.job(job, "run").operators().get(0).splits();
    }

    @Test
    void aPoisonRecordFailsTheJobNamingTopicPartitionAndOffset() throws Exception {
        topics.create("poison", 1);
        topics.write("poison", 0, List.of(utf8("a"), utf8("b"), NOT_UTF8, utf8("c")));
        try (RunningJob job =
                start("poison", config("poison"), Sinks.collecting(), 1, JobConfig.defaults())) {
            assertThatThrownBy(() -> job.await(TIMEOUT))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("topic 'poison' partition 0 offset 2")
                    .hasMessageContaining("dead-letter");
        }
    }

    @Test
    void aPoisonRecordGoesToTheDeadLetterTopicAndTheJobReadsOn() throws Exception {
        topics.create("poison-dl", 1);
        topics.create("dead", 1);
        topics.write("poison-dl", 0, List.of(utf8("a"), NOT_UTF8, utf8("c")));
        KafkaSourceConfig config =
                config("poison-dl").withBadRecords(BadRecords.deadLetterTopic("dead"));
        Sinks.CollectingSink<String> sink = Sinks.collecting();
        try (RunningJob job = start("dead-letters", config, sink, 1, JobConfig.defaults())) {
            awaitRecords(job, sink, 2);
            assertThat(sink.records()).containsExactly("a", "c");
            List<ConsumerRecord<byte[], byte[]>> dead = topics.readAll("dead", true);
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).value()).isEqualTo(NOT_UTF8);
            assertThat(header(dead.get(0), DeadLetters.OFFSET_HEADER)).isEqualTo("1");
            assertThat(header(dead.get(0), DeadLetters.TOPIC_HEADER)).isEqualTo("poison-dl");
        }
    }

    @Test
    void aMissingTopicFailsTheJobNamingTheTopic() throws Exception {
        try (RunningJob job =
                start(
                        "missing",
                        config("no-such-topic"),
                        Sinks.collecting(),
                        1,
                        JobConfig.defaults())) {
            assertThatThrownBy(() -> job.await(TIMEOUT))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining(
                            "topic 'no-such-topic' does not exist at " + broker.bootstrapServers());
        }
    }

    @Test
    void anUnreachableBrokerFailsTheJobNamingTheAddress() throws Exception {
        String nowhere = "127.0.0.1:" + Ports.free();
        KafkaSourceConfig config =
                KafkaSourceConfig.of(nowhere, "any").withRequestTimeout(Duration.ofSeconds(2));
        try (RunningJob job =
                start("unreachable", config, Sinks.collecting(), 1, JobConfig.defaults())) {
            assertThatThrownBy(() -> job.await(TIMEOUT))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("no broker answered at " + nowhere);
        }
    }

    /**
     * A job rescaled from 2 to 3 source instances through its savepoint reads every record once;
     * when the broker then restarts, the job either rides it out or fails naming the broker and
     * restarts from its latest checkpoint: either way no record is lost.
     */
    @Test
    void aRescaleRepeatsNoRecordAndABrokerRestartLosesNone() throws Exception {
        topics.create("moving", 6);
        writeNumbered("moving", 0, 6, 50);
        Sinks.CollectingSink<String> sink = Sinks.collecting();
        JobConfig checkpointed =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.every(
                                        Duration.ofMillis(500), dir.resolve("checkpoints")))
                        .withRestartStrategy(RestartStrategy.fixedDelay(20, Duration.ofSeconds(1)));
        try (RunningJob job = start("moving", config("moving"), sink, 2, checkpointed)) {
            awaitRecords(job, sink, 100);
            job.rescale(Map.of("kafka", 3), TIMEOUT);
            writeNumbered("moving", 0, 6, 50);
            awaitRecords(job, sink, 600);
            assertThat(sink.records()).hasSize(600).doesNotHaveDuplicates();

            broker.crashAndRestart();
            List<String> after = writeNumbered("moving", 0, 6, 50);
            Await.until(
                    TIMEOUT,
                    "every record written after the restart",
                    () -> new HashSet<>(sink.records()).containsAll(after));
        }
    }

    private static RunningJob start(
            String name,
            KafkaSourceConfig source,
            Sinks.CollectingSink<String> sink,
            int parallelism,
            JobConfig config) {
        JobBuilder job = JobBuilder.named(name);
        job.source("kafka", KafkaSource.utf8(source)).parallelism(parallelism).sink("sink", sink);
        return job.start(config);
    }

    private static KafkaSourceConfig config(String topic) {
        return KafkaSourceConfig.of(broker.bootstrapServers(), topic)
                .withDiscoveryInterval(Duration.ofMillis(200))
                .withRequestTimeout(Duration.ofSeconds(10));
    }

    /** Writes {@code count} new, distinct records to each partition in [from, to); returns them. */
    private static List<String> writeNumbered(String topic, int from, int to, int count) {
        List<String> written = new ArrayList<>();
        long stamp = System.nanoTime();
        for (int p = from; p < to; p++) {
            int partition = p;
            List<String> values =
                    IntStream.range(0, count)
                            .mapToObj(i -> partition + ":" + stamp + ":" + i)
                            .toList();
            topics.write(topic, p, values.stream().map(KafkaSourceIT::utf8).toList());
            written.addAll(values);
        }
        return written;
    }

    private static void awaitRecords(RunningJob job, Sinks.CollectingSink<String> sink, int count) {
        Await.until(
                TIMEOUT,
                count + " records at the sink",
                () -> {
                    if (job.status() == RunningJob.Status.FAILED) {
                        assertThatCode(() -> job.await(Duration.ZERO)).doesNotThrowAnyException();
                    }
                    return sink.records().size() >= count;
                });
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
        return new String(record.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
