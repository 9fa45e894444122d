package dev.flowscale.bench.sidebyside;

import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.Sentences;
import java.util.Map;

/**
 * The word count's load for the side-by-side run and its hand-computed optimum. Each operator
 * instance blocks for its per-record cost, so one instance of an operator costing {@code c} µs per
 * record serves at most {@code 1e6 / c} records per second, and the least parallelism that sustains
 * a rate is the rate times the cost, rounded up.
 */
record SideBySideLoad(double sentencesPerSecond, long splitMicros, long countMicros) {

    static final int MAX_PARALLELISM = 128;

    /**
     * The job's settings for a run tagged {@code tag} whose schedule starts at {@code epochMillis}.
     */
    FlinkWordCount.Settings settings(String tag, long epochMillis, long seconds) {
        long count = Math.round(sentencesPerSecond * seconds * 2);
        return new FlinkWordCount.Settings(
                tag,
                epochMillis,
                sentencesPerSecond,
                count,
                splitMicros,
                countMicros,
                MAX_PARALLELISM);
    }

    /** Words per second reaching Count. */
    double wordsPerSecond() {
        return sentencesPerSecond * Sentences.WORDS_PER_SENTENCE;
    }

    /** The least parallelism per operator (by vertex name) that keeps up with the load. */
    Map<String, Integer> optimum() {
        return Map.of(
                "Split", least(sentencesPerSecond * splitMicros),
                "Count", least(wordsPerSecond() * countMicros));
    }

    /** Total instances of the optimum, the source's one included. */
    int optimumInstances() {
        return 1 + optimum().values().stream().mapToInt(Integer::intValue).sum();
    }

    private static int least(double busyMicrosPerSecond) {
        return (int) Math.ceil(busyMicrosPerSecond / 1e6 - 1e-9);
    }
}
