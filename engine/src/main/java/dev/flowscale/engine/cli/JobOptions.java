package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.source.RateProfile;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import picocli.CommandLine.Option;
import picocli.CommandLine.UseDefaultConverter;

/**
 * The options of a built-in job ({@link BuiltinJobs}), the same for the runner and for {@code
 * ./flowscale run}: a picocli mixin. Options of one job only are null unless given, so that the
 * catalogue can refuse them for the other job.
 */
public final class JobOptions {
    /** The number of key groups when {@code --key-groups} is not given. */
    public static final int DEFAULT_KEY_GROUPS = 128;

    @Option(
            names = "--rate",
            paramLabel = "SPEC",
            defaultValue = "1000",
            converter = OptionValues.Rate.class,
            description =
                    "Source rate in records/s: 1000 (default), max (as fast as the job goes), constant:1000,"
                            + " steps:0s=200,40s=600, sine:base=1000,amplitude=500,period=60s, trace:/path/file.csv")
    RateProfile rate;

    @Option(
            names = "--parallelism",
            paramLabel = "OP=P",
            split = ",",
            description =
                    "Initial parallelism per operator, e.g. split=2,count=4 (default 1; at most --key-groups).")
    Map<String, Integer> parallelism = new LinkedHashMap<>();

    @Option(
            names = "--cost",
            paramLabel = "OP=COST",
            split = ",",
            converter = {UseDefaultConverter.class, OptionValues.Cost.class},
            description =
                    "Synthetic per-record cost per operator: cpu:200us (busy), sleep:1ms (blocking), none.")
    Map<String, SyntheticCost> cost = new LinkedHashMap<>();

    @Option(
            names = "--key-groups",
            paramLabel = "N",
            converter = OptionValues.KeyGroupCount.class,
            description =
                    "Number of key groups, which bounds every operator's parallelism (default "
                            + DEFAULT_KEY_GROUPS
                            + "; a user's job: the number it declares).")
    Integer keyGroups;

    @Option(
            names = "--limit",
            paramLabel = "N",
            converter = OptionValues.Positive.class,
            description = "Stop the source after N records (default: endless).")
    Integer limit;

    @Option(
            names = "--words-per-sentence",
            paramLabel = "N",
            converter = OptionValues.Positive.class,
            description = "wordcount: words per sentence (default 10).")
    Integer wordsPerSentence;

    @Option(
            names = "--vocabulary",
            paramLabel = "N",
            converter = OptionValues.Positive.class,
            description = "wordcount: distinct words (default 10000).")
    Integer vocabulary;

    @Option(
            names = "--stages",
            paramLabel = "N",
            converter = OptionValues.Positive.class,
            description = "chain: number of map operators (default 3).")
    Integer stages;

    @Option(
            names = "--stage-cost",
            paramLabel = "COST",
            converter = OptionValues.Cost.class,
            description = "chain: cost of every map (default cpu:20us).")
    SyntheticCost stageCost;

    @Option(
            names = "--kafka-bootstrap-servers",
            paramLabel = "HOST:PORT,...",
            description =
                    "kafka-wordcount: the Kafka brokers (security settings: KAFKA_CLIENT_* environment"
                            + " variables, e.g. KAFKA_CLIENT_SECURITY_PROTOCOL=SASL_SSL).")
    String kafkaBootstrapServers;

    @Option(
            names = "--kafka-topic",
            paramLabel = "TOPIC",
            description = "kafka-wordcount: the topic of sentences read.")
    String kafkaTopic;

    @Option(
            names = "--kafka-output-topic",
            paramLabel = "TOPIC",
            description =
                    "kafka-wordcount: the topic the counts go to, exactly once (default: <topic>-counts).")
    String kafkaOutputTopic;

    @Option(
            names = "--kafka-group-id",
            paramLabel = "GROUP",
            description =
                    "kafka-wordcount: consumer group the checkpointed offsets are committed to, for lag"
                            + " monitoring (default: none).")
    String kafkaGroupId;

    /** {@code --kafka-bootstrap-servers}, or null. */
    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }

    /** {@code --kafka-topic}, or null. */
    public String kafkaTopic() {
        return kafkaTopic;
    }

    /** {@code --kafka-output-topic}, or null. */
    public String kafkaOutputTopic() {
        return kafkaOutputTopic;
    }

    /** {@code --kafka-group-id}, or null. */
    public String kafkaGroupId() {
        return kafkaGroupId;
    }

    /** The job's number of key groups, which bounds every parallelism. */
    public int keyGroups() {
        return keyGroupsOr(DEFAULT_KEY_GROUPS);
    }

    /** {@code --key-groups} if given, else {@code declared} (what a user's job declares). */
    public int keyGroupsOr(int declared) {
        return keyGroups == null ? declared : keyGroups;
    }

    /**
     * The source's planned rate (records/s) at a time since the start; null for {@code --rate max}.
     */
    public DoubleUnaryOperator plannedRate() {
        return rate == null ? null : rate::rateAt;
    }
}
