package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaEnvironmentTest {
    @Test
    void variablesWithTheClientPrefixBecomeLowerCaseDottedProperties() {
        Map<String, String> environment =
                Map.of(
                        "KAFKA_CLIENT_SECURITY_PROTOCOL", "SASL_SSL",
                        "KAFKA_CLIENT_SASL_JAAS_CONFIG", "secret",
                        "KAFKA_CLIENT_", "ignored: no name",
                        "PATH", "/usr/bin");

        assertThat(KafkaEnvironment.clientProperties(environment))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config", "secret"));
    }
}
