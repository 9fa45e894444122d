package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.JobOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The built-in job kafka-wordcount in the engine's catalogue. */
class KafkaWordCountTest {
    @Test
    void theCatalogueListsTheKafkaWordCount() {
        assertThat(BuiltinJobs.NAMES).contains("wordcount", "chain", KafkaWordCount.NAME);
        assertThat(BuiltinJobs.SHAPES.get(KafkaWordCount.NAME)).startsWith("kafka topic");
    }

    @Test
    void theJobRefusesToStartWithoutItsBrokers() {
        assertThatThrownBy(
                        () ->
                                BuiltinJobs.build(
                                        KafkaWordCount.NAME, options("--kafka-topic", "t"), false))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("--kafka-bootstrap-servers");
    }

    private static JobOptions options(String... args) {
        return CommandLine.populateCommand(new JobOptions(), args);
    }
}
