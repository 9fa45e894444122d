package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.WordCount;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.testsupport.Await;
import dev.flowscale.testsupport.Ports;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@code kafka-wordcount} in a runner process that is killed mid-run, against a real broker. It
 * takes about 30 s here (two runner JVMs, a rescale, a 3 s transaction timeout), so it runs in the
 * {@code kafka-long} profile, not in the default build: {@code mvn -B -pl kafka-connector verify
 * -Pkafka-long}.
 */
class KafkaRunnerKillIT extends WithKafkaBroker {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /**
     * The runner process of {@code kafka-wordcount} is rescaled through its API, then killed
     * (SIGKILL) while sentences keep arriving, and started again on its storage: it restores the
     * latest checkpoint, re-writes what that checkpoint prepared but did not commit, and the
     * read_committed output holds every word's counts 1..n exactly once.
     */
    @Test
    void aKilledAndRestartedRunnerCommitsEveryCountOnce() throws Exception {
        topics.create("kill-in", 4);
        topics.create("kill-out", 2);
        Path storage = dir.resolve("kill-runner");
        int port = Ports.free();
        List<String> sentences = new ArrayList<>(writeSentences("kill-in", 0, 25));
        long t0 = System.nanoTime();
        try (WordCountRunner first = runner(storage, port, "runner-1.log")) {
            first.awaitRunning();
            phase("first runner running", t0);
            first.client().rescale(Map.of(WordCount.COUNT, 2), TIMEOUT);
            phase("rescaled", t0);
            sentences.addAll(writeSentences("kill-in", 25, 25));
            // Killed with some of the input committed and the rest under way.
            awaitCommitted("kill-out", 330);
            phase("330 counts committed", t0);
            first.kill();
        }
        sentences.addAll(writeSentences("kill-in", 50, 25));
        try (WordCountRunner second = runner(storage, port, "runner-2.log")) {
            second.awaitRunning();
            phase("second runner running", t0);
            awaitCommitted("kill-out", countsOf(sentences).size());
            phase("every count committed", t0);
        }
        assertThat(committed("kill-out"))
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(countsOf(sentences));
    }

    private static void phase(String what, long t0) {
        System.out.printf("%5.1f s: %s%n", (System.nanoTime() - t0) / 1e9, what);
    }

    private static WordCountRunner runner(Path storage, int port, String log) throws Exception {
        return WordCountRunner.start(
                broker.bootstrapServers(), "kill-in", "kill-out", storage, port, log);
    }

    /** Sentences {@code from} .. from + perPartition × 4 - 1, sentence i to partition i mod 4. */
    private static List<String> writeSentences(String topic, int from, int perPartition) {
        List<String> all = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            List<String> mine = new ArrayList<>();
            for (int i = from * 4 + p; i < (from + perPartition) * 4; i += 4) {
                mine.add("w" + i % 7 + " w" + i % 5 + " w" + i % 3);
            }
            topics.write(topic, p, mine.stream().map(KafkaRunnerKillIT::utf8).toList());
            all.addAll(mine);
        }
        return all;
    }

    /** The output "word n" for n in 1..(how often the word occurs). */
    private static List<String> countsOf(List<String> sentences) {
        Map<String, Long> words = new HashMap<>();
        sentences.forEach(s -> List.of(s.split(" ")).forEach(w -> words.merge(w, 1L, Long::sum)));
        List<String> counts = new ArrayList<>();
        words.forEach((w, n) -> LongStream.rangeClosed(1, n).forEach(c -> counts.add(w + " " + c)));
        return counts;
    }

    private static void awaitCommitted(String topic, int count) {
        Await.until(
                TIMEOUT,
                count + " committed records in " + topic,
                () -> committed(topic).size() >= count);
    }

    private static List<String> committed(String topic) {
        return topics.readAllText(topic, true);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
