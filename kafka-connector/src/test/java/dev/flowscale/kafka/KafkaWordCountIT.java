package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.cli.BuiltinJobs;
import dev.flowscale.engine.cli.JobOptions;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.CheckpointConfig;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The built-in job kafka-wordcount, found by the engine's catalogue, against a real broker. */
class KafkaWordCountIT extends WithKafkaBroker {
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

    @Test
    void everyWordsCountsArriveOnceEachInTheOutputTopic() throws Exception {
        topics.create("sentences", 4);
        topics.create("counts", 2);
        List<String> sentences = List.of("to be or not to be", "be quick", "not now", "to and fro");
        for (int p = 0; p < 4; p++) {
            topics.write("sentences", p, sentences.stream().map(KafkaWordCountIT::utf8).toList());
        }
        JobOptions options =
                options(
                        "--kafka-bootstrap-servers", broker.bootstrapServers(),
                        "--kafka-topic", "sentences",
                        "--kafka-output-topic", "counts",
                        "--parallelism", "count=2");
        JobGraph graph = BuiltinJobs.build(KafkaWordCount.NAME, options, false);
        Map<String, Long> expected = new HashMap<>();
        sentences.forEach(
                s -> List.of(s.split(" ")).forEach(w -> expected.merge(w, 4L, Long::sum)));
        long updates = expected.values().stream().mapToLong(Long::longValue).sum();
        JobConfig config =
                JobConfig.defaults()
                        .withCheckpointing(
                                CheckpointConfig.every(Duration.ofMillis(300), dir.resolve("cp")));
        try (RunningJob job = RunningJob.start(graph, config)) {
            Await.until(
                    Duration.ofSeconds(60),
                    updates + " counts committed",
                    () -> topics.readAllText("counts", true).size() >= updates);
        }
        List<String> counts = topics.readAllText("counts", true);
        assertThat(counts).hasSize((int) updates).doesNotHaveDuplicates();
        Map<String, Long> last =
                counts.stream()
                        .collect(
                                Collectors.toMap(
                                        c -> c.split(" ")[0],
                                        c -> Long.parseLong(c.split(" ")[1]),
                                        Math::max));
        assertThat(last).isEqualTo(expected);
    }

    private static JobOptions options(String... args) {
        return CommandLine.populateCommand(new JobOptions(), args);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
