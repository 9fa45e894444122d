package dev.flowscale.kafka;

import java.time.Duration;
import java.util.Map;

/** Argument checks of the connector's configs; messages name the field and the fix. */
final class Checks {
    private Checks() {}

    /**
     * The settings every client of the connector has: brokers and topic ({@code role} says what the
     * topic is for), a positive request timeout.
     */
    static void connection(
            String what, String servers, String topic, String role, Duration requestTimeout) {
        require(what, servers, "bootstrap servers", "host:port of at least one broker");
        require(what, topic, "topic", role);
        positive(what, requestTimeout, "request timeout");
    }

    /** An immutable copy of further client settings; none for null. */
    static Map<String, String> properties(Map<String, String> properties) {
        return Map.copyOf(properties == null ? Map.of() : properties);
    }

    static void require(String what, String value, String field, String fix) {
        if (value == null || value.isBlank()) {
            throw new KafkaConnectorException(what + ": " + field + " is empty; give " + fix);
        }
    }

    static void positive(String what, Duration value, String field) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new KafkaConnectorException(
                    what + ": " + field + " is " + value + "; use a positive duration");
        }
    }
}
