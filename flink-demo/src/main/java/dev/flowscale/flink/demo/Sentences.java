package dev.flowscale.flink.demo;

import java.util.HashMap;
import java.util.Map;

/** Deterministic sentences: sentence i has {@link #WORDS_PER_SENTENCE} words chosen from i. */
public final class Sentences {
    public static final int WORDS_PER_SENTENCE = 5;
    private static final String[] WORDS = {
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
        "kilo",
        "lima",
        "mike",
        "november",
        "oscar",
        "papa",
        "quebec",
        "romeo",
        "sierra",
        "tango",
        "uniform",
        "victor",
        "whiskey",
        "xray",
        "yankee",
        "zulu",
        "one",
        "two",
        "three",
        "four",
        "five"
    };

    private Sentences() {}

    public static String sentence(long index) {
        StringBuilder sentence = new StringBuilder();
        for (int k = 0; k < WORDS_PER_SENTENCE; k++) {
            if (k > 0) {
                sentence.append(' ');
            }
            sentence.append(word(index, k));
        }
        return sentence.toString();
    }

    private static String word(long index, int position) {
        return WORDS[(int) ((index * 7 + position * 13 + index / 5) % WORDS.length)];
    }

    /** How often each word occurs in sentences 0 .. count - 1. */
    public static Map<String, Long> counts(long count) {
        Map<String, Long> counts = new HashMap<>();
        for (long i = 0; i < count; i++) {
            for (int k = 0; k < WORDS_PER_SENTENCE; k++) {
                counts.merge(word(i, k), 1L, Long::sum);
            }
        }
        return counts;
    }
}
