package dev.flowscale.kafka.local;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.kafka.KafkaConnectorException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker that cannot start says where and why (the real starts are in the Kafka ITs). */
class LocalKafkaBrokerTest {
    @TempDir Path dir;

    @Test
    void aBrokerWhoseDataFolderCannotBeMadeNamesTheFolderAndTheCause() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
        assertThatThrownBy(() -> LocalKafkaBroker.start(file.resolve("broker")))
                .isInstanceOf(KafkaConnectorException.class)
                .hasMessageContaining("cannot start a Kafka broker in " + file.resolve("broker"))
                .hasMessageContaining("not-a-folder");
    }
}
