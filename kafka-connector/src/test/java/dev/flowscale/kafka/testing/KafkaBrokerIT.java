package dev.flowscale.kafka.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerIT {
    @TempDir static Path dir;
    static KafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start(dir);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aRestartedBrokerStillHasTheTopicsAndRecordsWrittenBeforeIt() {
        Topics topics = new Topics(broker);
        topics.create("kept", 3);
        topics.write("kept", 2, List.of(bytes("a"), bytes("b")));

        broker.restart();

        List<ConsumerRecord<byte[], byte[]>> read = topics.readAll("kept", true);
        assertThat(read)
                .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("a", "b");
        assertThat(read).allMatch(r -> r.partition() == 2);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
