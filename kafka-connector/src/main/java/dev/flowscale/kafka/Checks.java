package dev.flowscale.kafka;

import java.time.Duration;

/** Argument checks of the connector's configs; messages name the field and the fix. */
final class Checks {
    private Checks() {}

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
