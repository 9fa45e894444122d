package dev.flowscale.engine.examples;

import dev.flowscale.engine.api.EngineException;
import java.util.Arrays;

/**
 * Deterministic sentences for word-count jobs. The sentence for a sequence number depends only on
 * the constructor arguments and that number, so a source replaying from an offset regenerates
 * identical data. Words come from a fixed vocabulary of pronounceable lowercase words, uniformly or
 * with a Zipf skew, and are separated by single spaces.
 *
 * <p>Each word is drawn from a SplitMix64 hash of (seed, sequence number, position): random access
 * with no shared state, so one instance may be used from several threads.
 */
public final class SentenceGenerator {

    /** Largest vocabulary; keeps the precomputed tables within a few tens of megabytes. */
    public static final int MAX_VOCABULARY_SIZE = 1_000_000;

    /** Largest sentence length in words. */
    public static final int MAX_WORDS_PER_SENTENCE = 10_000;

    private static final String CONSONANTS = "bdfgklmnprstvz";
    private static final String VOWELS = "aeiou";
    private static final int SYLLABLES = CONSONANTS.length() * VOWELS.length();
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private final int wordsPerSentence;
    private final double zipfExponent;
    private final long seed;
    private final char[][] vocabulary;
    private final int maxWordLength;

    /** Alias table for the Zipf draw; null when uniform. */
    private final ZipfAlias zipf;

    /** Uniformly drawn words. */
    public SentenceGenerator(int wordsPerSentence, int vocabularySize, long seed) {
        this(wordsPerSentence, vocabularySize, seed, 0);
    }

    /**
     * Words drawn with probability proportional to {@code 1 / rank^zipfExponent} (rank from 1);
     * {@code zipfExponent = 0} is uniform, about 1 resembles natural text.
     */
    public SentenceGenerator(
            int wordsPerSentence, int vocabularySize, long seed, double zipfExponent) {
        check("wordsPerSentence", wordsPerSentence, MAX_WORDS_PER_SENTENCE);
        check("vocabularySize", vocabularySize, MAX_VOCABULARY_SIZE);
        if (!Double.isFinite(zipfExponent) || zipfExponent < 0) {
            throw new EngineException(
                    "zipfExponent must be a finite number >= 0 but was "
                            + zipfExponent
                            + "; use 0 for uniform words or about 1 for natural-text skew");
        }
        this.wordsPerSentence = wordsPerSentence;
        this.zipfExponent = zipfExponent;
        this.seed = seed;
        this.vocabulary = buildVocabulary(vocabularySize);
        this.maxWordLength = vocabulary[vocabularySize - 1].length;
        this.zipf = zipfExponent == 0 ? null : ZipfAlias.of(vocabularySize, zipfExponent);
    }

    /**
     * The sentence with this sequence number: always the same for the same generator arguments.
     *
     * @throws EngineException if {@code sequenceNumber} is negative
     */
    public String sentence(long sequenceNumber) {
        if (sequenceNumber < 0) {
            throw new EngineException(
                    "sequenceNumber must be >= 0 but was "
                            + sequenceNumber
                            + "; pass the source's record offset");
        }
        StringBuilder out = new StringBuilder(wordsPerSentence * (maxWordLength + 1));
        long base = sequenceNumber * wordsPerSentence;
        for (int position = 0; position < wordsPerSentence; position++) {
            if (position > 0) {
                out.append(' ');
            }
            out.append(vocabulary[rankAt(base + position)]);
        }
        return out.toString();
    }

    /** Number of words in each sentence. */
    public int wordsPerSentence() {
        return wordsPerSentence;
    }

    /** Number of distinct words. */
    public int vocabularySize() {
        return vocabulary.length;
    }

    /** The Zipf exponent; 0 means uniform. */
    public double zipfExponent() {
        return zipfExponent;
    }

    /** The word of this rank (0 = most frequent under a Zipf skew). */
    public String word(int rank) {
        if (rank < 0 || rank >= vocabulary.length) {
            throw new EngineException(
                    "rank must be in [0, " + (vocabulary.length - 1) + "] but was " + rank);
        }
        return new String(vocabulary[rank]);
    }

    private int rankAt(long wordIndex) {
        long h = mix(seed + (wordIndex + 1) * GOLDEN_GAMMA);
        // High 32 bits pick a column (Lemire's multiply-shift); low 32 bits decide the alias.
        int column = (int) (((h >>> 32) * vocabulary.length) >>> 32);
        return zipf == null ? column : zipf.pick(column, h & 0xFFFF_FFFFL);
    }

    /** SplitMix64's finaliser: a cheap bijective 64-bit mix with full avalanche. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static char[][] buildVocabulary(int size) {
        char[][] words = new char[size][];
        for (int i = 0; i < size; i++) {
            words[i] = wordChars(i);
        }
        return words;
    }

    /**
     * Word {@code i} spells {@code i + SYLLABLES + 1} in bijective base {@code SYLLABLES}, one
     * consonant-vowel syllable per digit: distinct for distinct i, at least two syllables.
     */
    private static char[] wordChars(int index) {
        StringBuilder reversed = new StringBuilder();
        for (long n = index + SYLLABLES + 1L; n > 0; n = (n - 1) / SYLLABLES) {
            int digit = (int) ((n - 1) % SYLLABLES);
            reversed.append(VOWELS.charAt(digit % VOWELS.length()))
                    .append(CONSONANTS.charAt(digit / VOWELS.length()));
        }
        return reversed.reverse().toString().toCharArray();
    }

    private static void check(String field, int value, int max) {
        if (value < 1 || value > max) {
            throw new EngineException(
                    field
                            + " must be in [1, "
                            + max
                            + "] but was "
                            + value
                            + "; pick a value within these bounds");
        }
    }

    /** Vose's alias table: O(1) draws from a discrete distribution. */
    private static final class ZipfAlias {
        private static final long ONE = 1L << 32;

        private final long[] threshold;
        private final int[] alias;

        private ZipfAlias(long[] threshold, int[] alias) {
            this.threshold = threshold;
            this.alias = alias;
        }

        int pick(int column, long unsigned32) {
            return unsigned32 < threshold[column] ? column : alias[column];
        }

        static ZipfAlias of(int size, double exponent) {
            double[] p = weightsWithMeanOne(size, exponent);
            // Columns below their share fill work[] from the front, those above it from the back.
            int[] work = new int[size];
            int small = 0;
            int large = size;
            for (int k = 0; k < size; k++) {
                if (p[k] < 1) {
                    work[small++] = k;
                } else {
                    work[--large] = k;
                }
            }
            long[] threshold = new long[size];
            int[] alias = new int[size];
            // Columns left over at the end hold 1 up to rounding: they keep their own word.
            Arrays.fill(threshold, ONE);
            while (small > 0 && large < size) {
                int s = work[--small];
                int l = work[large];
                threshold[s] = (long) (p[s] * ONE);
                alias[s] = l;
                p[l] -= 1 - p[s];
                if (p[l] < 1) {
                    large++;
                    work[small++] = l;
                }
            }
            return new ZipfAlias(threshold, alias);
        }

        private static double[] weightsWithMeanOne(int size, double exponent) {
            double[] weights = new double[size];
            double total = 0;
            for (int k = 0; k < size; k++) {
                weights[k] = Math.pow(k + 1, -exponent);
                total += weights[k];
            }
            for (int k = 0; k < size; k++) {
                weights[k] = weights[k] * size / total;
            }
            return weights;
        }
    }
}
