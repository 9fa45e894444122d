package dev.flowscale.bench;

import dev.flowscale.engine.examples.SentenceGenerator;
import dev.flowscale.engine.examples.WordCount;
import java.util.HashMap;

/**
 * The limit a streaming engine is measured against: each workload written as one loop on one
 * thread, with no engine at all. Word count makes the same sentences from the same generator,
 * splits them with {@link WordCount#split}, counts each word in a {@code HashMap} of counters and
 * tells the metered sink of each counted word; map→filter runs the same sequence through {@code x +
 * 1} and the even filter into the metered sink. No records are built that nothing reads: this is
 * the work a job cannot avoid, the floor of its CPU per record.
 */
final class FusedLoop {
    private FusedLoop() {}

    static void run(Workload workload, long size) {
        if (workload == Workload.WORDCOUNT) {
            wordCount(size);
        } else {
            mapFilter(size);
        }
    }

    private static void wordCount(long sentences) {
        SentenceGenerator generator = Workload.sentences();
        HashMap<String, long[]> counts = new HashMap<>();
        for (long seq = 0; seq < sentences; seq++) {
            WordCount.split(
                    generator.sentence(seq),
                    word -> {
                        counts.computeIfAbsent(word, w -> new long[1])[0]++;
                        SinkMeter.record();
                    });
        }
    }

    private static void mapFilter(long records) {
        for (long seq = 0; seq < records; seq++) {
            long mapped = seq + 1;
            if ((mapped & 1) == 0) {
                SinkMeter.record();
            }
        }
    }
}
