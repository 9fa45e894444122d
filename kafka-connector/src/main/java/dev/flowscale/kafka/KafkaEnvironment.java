package dev.flowscale.kafka;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kafka client settings from environment variables, so that credentials stay out of command lines
 * (and, on Kubernetes, come from a Secret): {@code KAFKA_CLIENT_SECURITY_PROTOCOL=SASL_SSL} becomes
 * {@code security.protocol=SASL_SSL}; every variable {@code KAFKA_CLIENT_<NAME>} becomes the
 * property {@code <name>} lower-cased with dots for underscores.
 */
public final class KafkaEnvironment {
    public static final String PREFIX = "KAFKA_CLIENT_";

    private KafkaEnvironment() {}

    /** The client properties that {@code environment} sets. */
    public static Map<String, String> clientProperties(Map<String, String> environment) {
        Map<String, String> properties = new TreeMap<>();
        environment.forEach(
                (name, value) -> {
                    if (name.startsWith(PREFIX) && name.length() > PREFIX.length()) {
                        String key =
                                name.substring(PREFIX.length())
                                        .toLowerCase(Locale.ROOT)
                                        .replace('_', '.');
                        properties.put(key, value);
                    }
                });
        return properties;
    }
}
