package dev.flowscale.bench;

import dev.flowscale.engine.examples.SentenceGenerator;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The measured jobs; each reports source-side records per second. */
enum Workload {
    /** sentences → flatMap split → keyBy word → count (ValueState) → sink; unit: words. */
    WORDCOUNT("words/s", 2_500_000, 10),
    /** sequence → map(x + 1) → filter(even) → sink; unit: records. */
    MAPFILTER("records/s", 80_000_000, 1);

    static final int WORDS_PER_SENTENCE = 10;
    static final int VOCABULARY = 10_000;
    static final long SEED = 42L;

    private final String unit;
    private final long defaultSize;
    private final int wordsPerSourceRecord;

    Workload(String unit, long defaultSize, int wordsPerSourceRecord) {
        this.unit = unit;
        this.defaultSize = defaultSize;
        this.wordsPerSourceRecord = wordsPerSourceRecord;
    }

    String unit() {
        return unit;
    }

    /** Source records of one run (sentences for word count). */
    long defaultSize() {
        return defaultSize;
    }

    /** Records the sink receives from {@code size} source records. */
    long sinkRecords(long size) {
        return this == WORDCOUNT ? size * wordsPerSourceRecord : size / 2;
    }

    /** Reported records (words, or source records) per sink record. */
    double reportedPerSinkRecord() {
        return this == WORDCOUNT ? 1 : 2;
    }

    /** The workloads a comma-separated option names, case-insensitively. */
    static List<Workload> parseList(String names) {
        return Arrays.stream(names.split(","))
                .map(s -> valueOf(s.trim().toUpperCase(Locale.ROOT)))
                .toList();
    }

    static SentenceGenerator sentences() {
        return new SentenceGenerator(WORDS_PER_SENTENCE, VOCABULARY, SEED);
    }
}
