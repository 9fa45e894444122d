package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import java.util.ArrayList;
import java.util.List;

/**
 * Kafka settings of a job that reads and writes Kafka (the built-in {@code kafka-wordcount}). The
 * operator passes them as runner options; credentials stay in a Secret that the runner pod reads
 * through environment variables, so the operator never reads it.
 */
public class KafkaSpec {
    @JsonPropertyDescription("Kafka bootstrap servers, host:port[,host:port...]")
    public String bootstrapServers;

    @JsonPropertyDescription("The topic the job reads")
    public String topic;

    @JsonPropertyDescription("The topic the job writes (default <topic>-counts)")
    public String outputTopic;

    @JsonPropertyDescription(
            "Consumer group the job commits its checkpointed offsets to, for lag monitoring only")
    public String groupId;

    @JsonPropertyDescription(
            "Client settings (security, credentials) from a Secret: each listed key becomes the"
                    + " runner's environment variable KAFKA_CLIENT_<KEY> (upper case, dots and dashes"
                    + " as underscores), e.g. key sasl.jaas.config sets the client property"
                    + " sasl.jaas.config")
    public ClientSecret clientSecret;

    /** A Secret of Kafka client properties, one key per property. */
    public static class ClientSecret {
        @JsonPropertyDescription("Name of the Secret, in the StreamJob's namespace")
        public String name;

        @JsonPropertyDescription(
                "Keys of the Secret, each a Kafka client property name, e.g. security.protocol,"
                        + " sasl.mechanism, sasl.jaas.config")
        public List<@Pattern("^[a-z][a-z0-9.-]*$") String> keys = new ArrayList<>();
    }
}
