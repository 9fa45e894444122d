package dev.flowscale.kafka;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.cli.BuiltinJob;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.engine.examples.WordCount.WordAndCount;
import dev.flowscale.engine.job.JobBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The built-in job {@code kafka-wordcount}: sentences from a Kafka topic, counted per word, each
 * new count written exactly once to another topic (key: the word; value: "word count"). Its source
 * backlog is the consumer lag, so the autoscaler sizes it from a real backlog.
 */
public final class KafkaWordCount implements BuiltinJob {
    public static final String NAME = "kafka-wordcount";

    private final Map<String, String> environment;

    /** The job with security settings from this process's environment. */
    public KafkaWordCount() {
        this(System.getenv());
    }

    KafkaWordCount(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String shape() {
        return "kafka topic -> split -> keyBy word -> count -> kafka topic (exactly once)";
    }

    @Override
    public JobBuilder build(JobOptions options, boolean idleAtLimit) {
        String servers = required(options.kafkaBootstrapServers(), "--kafka-bootstrap-servers");
        String topic = required(options.kafkaTopic(), "--kafka-topic");
        String output =
                options.kafkaOutputTopic() == null ? topic + "-counts" : options.kafkaOutputTopic();
        Map<String, String> client = KafkaEnvironment.clientProperties(environment);
        KafkaSourceConfig source =
                KafkaSourceConfig.of(servers, topic)
                        .withGroupId(options.kafkaGroupId())
                        .withClientProperties(client);
        KafkaSinkConfig sink =
                KafkaSinkConfig.exactlyOnce(servers, output)
                        .withTransactionalIdPrefix("flowscale-" + NAME + "-" + output)
                        .withClientProperties(client);
        String timeout = client.get("transaction.timeout.ms");
        if (timeout != null) {
            // The sink sets the producer's timeout itself; KAFKA_CLIENT_TRANSACTION_TIMEOUT_MS
            // is how a user shortens the time a killed runner's transaction holds readers back.
            sink = sink.withTransactionTimeout(Duration.ofMillis(millis(timeout)));
        }
        JobBuilder job = JobBuilder.named(NAME);
        job.source(WordCount.SOURCE, KafkaSource.utf8(source))
                .flatMap(WordCount.SPLIT, WordCount::split)
                .keyBy(word -> word)
                .process(WordCount.COUNT, WordCount.CountWords::new)
                .process(WordCount.SINK, KafkaSink.of(sink, new CountSerializer()));
        return job;
    }

    private static long millis(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidJobException(
                    "job "
                            + NAME
                            + ": KAFKA_CLIENT_TRANSACTION_TIMEOUT_MS is '"
                            + value
                            + "'; give the timeout in milliseconds, e.g. 60000");
        }
    }

    private static String required(String value, String option) {
        if (value == null || value.isBlank()) {
            throw new InvalidJobException(
                    "job " + NAME + " needs option " + option + "; see ./flowscale run --help");
        }
        return value;
    }

    /** Key: the word; value: "word count". */
    private static final class CountSerializer implements KafkaRecordSerializer<WordAndCount> {
        @Override
        public byte[] key(WordAndCount record) {
            return record.word().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public byte[] value(WordAndCount record) {
            return (record.word() + " " + record.count()).getBytes(StandardCharsets.UTF_8);
        }
    }
}
