package dev.flowscale.engine.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.engine.api.EngineException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SentenceGeneratorTest {

    @Test
    void sameSequenceNumberGivesTheSameSentenceAcrossInstances() {
        SentenceGenerator first = new SentenceGenerator(10, 1000, 42);
        SentenceGenerator replay = new SentenceGenerator(10, 1000, 42);
        for (long seq = 5_000; seq < 6_000; seq++) {
            assertThat(replay.sentence(seq)).isEqualTo(first.sentence(seq));
        }
        assertThat(first.sentence(7)).isEqualTo(first.sentence(7));
    }

    @Test
    void seedAndSequenceNumberChangeTheSentence() {
        SentenceGenerator a = new SentenceGenerator(10, 1000, 1);
        SentenceGenerator b = new SentenceGenerator(10, 1000, 2);
        assertThat(a.sentence(0)).isNotEqualTo(b.sentence(0)).isNotEqualTo(a.sentence(1));
    }

    @Test
    void sentencesAreVocabularyWordsSeparatedBySingleSpaces() {
        SentenceGenerator generator = new SentenceGenerator(7, 50, 3);
        Set<String> vocabulary = vocabulary(generator);
        for (long seq = 0; seq < 1000; seq++) {
            String sentence = generator.sentence(seq);
            String[] words = sentence.split(" ", -1);
            assertThat(words).hasSize(7);
            assertThat(vocabulary).contains(words);
        }
        assertThat(generator.wordsPerSentence()).isEqualTo(7);
    }

    @Test
    void vocabularyHoldsDistinctPronounceableLowercaseWords() {
        // 30,000 words reach past the 4,900 two-syllable words into three syllables.
        SentenceGenerator generator = new SentenceGenerator(1, 30_000, 0);
        Set<String> vocabulary = vocabulary(generator);
        assertThat(vocabulary).hasSize(30_000);
        assertThat(vocabulary)
                .allMatch(w -> w.length() >= 4 && w.chars().allMatch(c -> c >= 'a' && c <= 'z'));
        assertThat(generator.word(0)).isEqualTo("baba");
    }

    @Test
    void uniformDrawsUseEveryWordEquallyOften() {
        SentenceGenerator generator = new SentenceGenerator(10, 10, 11);
        Map<String, Integer> counts = countWords(generator, 20_000);
        assertThat(counts).hasSize(10);
        counts.values().forEach(n -> assertThat(n / 200_000.0).isCloseTo(0.1, within(0.005)));
    }

    @Test
    void zipfSkewFollowsInverseRank() {
        SentenceGenerator generator = new SentenceGenerator(10, 100, 5, 1.0);
        Map<String, Integer> counts = countWords(generator, 20_000);
        double harmonic = 0;
        for (int k = 1; k <= 100; k++) {
            harmonic += 1.0 / k;
        }
        for (int rank : new int[] {0, 1, 9, 99}) {
            double share = counts.getOrDefault(generator.word(rank), 0) / 200_000.0;
            assertThat(share)
                    .as("rank %d", rank)
                    .isCloseTo(1 / ((rank + 1) * harmonic), within(0.003));
        }
    }

    @Test
    void rejectsArgumentsOutOfBounds() {
        assertThatThrownBy(() -> new SentenceGenerator(0, 10, 1))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("wordsPerSentence must be in [1, 10000]");
        assertThatThrownBy(() -> new SentenceGenerator(1, 0, 1))
                .hasMessageContaining("vocabularySize");
        assertThatThrownBy(() -> new SentenceGenerator(1, 2_000_000, 1))
                .hasMessageContaining("vocabularySize");
        assertThatThrownBy(() -> new SentenceGenerator(1, 10, 1, -1))
                .hasMessageContaining("zipfExponent");
        assertThatThrownBy(() -> new SentenceGenerator(1, 10, 1).sentence(-1))
                .hasMessageContaining("sequenceNumber");
        assertThatThrownBy(() -> new SentenceGenerator(1, 10, 1).word(10))
                .hasMessageContaining("rank");
    }

    private static Set<String> vocabulary(SentenceGenerator generator) {
        Set<String> words = new HashSet<>();
        for (int rank = 0; rank < generator.vocabularySize(); rank++) {
            words.add(generator.word(rank));
        }
        return words;
    }

    private static Map<String, Integer> countWords(SentenceGenerator generator, int sentences) {
        Map<String, Integer> counts = new HashMap<>();
        for (long seq = 0; seq < sentences; seq++) {
            for (String word : generator.sentence(seq).split(" ")) {
                counts.merge(word, 1, Integer::sum);
            }
        }
        return counts;
    }
}
