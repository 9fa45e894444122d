package dev.flowscale.engine.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Source splits reassigned at any new parallelism cover the remaining sequence numbers exactly
 * once.
 */
class GeneratorSplitsTest {
    private final GeneratorSource<Long> source = new GeneratorSource<>(null, seq -> seq, 1_000);

    @Test
    void reassignedSplitsCoverEveryRemainingNumberExactlyOnce() {
        List<Object> splits = new ArrayList<>();
        splits.add(new GeneratorSplit(7, 3, 0)); // 7, 10, 13, ...
        splits.add(new GeneratorSplit(5, 3, 0)); // 5, 8, 11, ...
        splits.add(new GeneratorSplit(30, 3, 0)); // 30, 33, ... (this split was further ahead)
        for (int p = 1; p <= 8; p++) {
            List<List<Object>> assigned = source.assignSplits(splits, p);
            assertThat(assigned).hasSize(p).allSatisfy(share -> assertThat(share).isNotEmpty());
            TreeSet<Long> covered = new TreeSet<>();
            int total = 0;
            for (List<Object> share : assigned) {
                for (Object o : share) {
                    GeneratorSplit split = (GeneratorSplit) o;
                    for (long seq = split.next(); seq < 1_000; seq += split.step()) {
                        covered.add(seq);
                        total++;
                    }
                }
            }
            assertThat(total).as("no number twice at p=" + p).isEqualTo(covered.size());
            TreeSet<Long> expected = new TreeSet<>();
            for (long seq = 0; seq < 1_000; seq++) {
                if (seq % 3 == 1 && seq >= 7
                        || seq % 3 == 2 && seq >= 5
                        || seq % 3 == 0 && seq >= 30) {
                    expected.add(seq);
                }
            }
            assertThat(covered).as("every remaining number at p=" + p).isEqualTo(expected);
        }
    }
}
