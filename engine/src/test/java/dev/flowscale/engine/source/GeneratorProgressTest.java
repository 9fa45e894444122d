package dev.flowscale.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceReader;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What a generator source has emitted follows from its splits' positions, and after a restore
 * behind its schedule it is not a prefix of the stream: a test of an endless stream that expects
 * "the first n records" would report records lost and duplicated where none were.
 */
class GeneratorProgressTest {
    private static final long HOUR_MILLIS = 3_600_000L;
    private final GeneratorSource<Long> source =
            new GeneratorSource<>(RateProfile.constant(1_500), seq -> seq, Long.MAX_VALUE);

    @Test
    void aRestoredSourceBehindItsScheduleEmitsNoPrefixButExactlyTheNumbersBelowItsPositions()
            throws Exception {
        // A runner that restarts owes what fell due while it was down: here an hour of records.
        long start = System.currentTimeMillis() - HOUR_MILLIS;
        List<Object> restored =
                source.assignSplits(List.of(new GeneratorSplit(0, 1, start)), 1).get(0);
        SourceReader<Long> reader = source.restoreReader(context(), restored);
        List<Long> out = new ArrayList<>();
        for (int poll = 0; poll < 6; poll++) {
            assertThat(reader.poll(collector(out), 100)).isEqualTo(100);
        }
        @SuppressWarnings("unchecked")
        List<GeneratorSplit> positions = (List<GeneratorSplit>) reader.snapshotSplits();

        assertThat(out).as("emitted").hasSize(600).doesNotHaveDuplicates();
        assertThat(out.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the highest number emitted: beyond 0..599, so not a prefix")
                .isGreaterThan(599);
        assertThat(GeneratorProgress.emitted(positions).boxed().toList())
                .as("the numbers below the positions " + positions)
                .containsExactlyElementsOf(out.stream().sorted().toList());
    }

    @Test
    void oneSplitHasEmittedThePrefixBelowItsPosition() {
        assertThat(GeneratorProgress.emitted(List.of(new GeneratorSplit(5, 1, 0))))
                .containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void splitsOfUnevenStepsHaveEmittedTheNumbersOfTheirSharesBelowTheirPositions() {
        // shares: even numbers (from 6), 1 mod 4 (from 1), 3 mod 4 (from 11)
        List<GeneratorSplit> splits =
                List.of(
                        new GeneratorSplit(6, 2, 0),
                        new GeneratorSplit(1, 4, 0),
                        new GeneratorSplit(11, 4, 0));

        assertThat(GeneratorProgress.emitted(splits)).containsExactly(0L, 2L, 3L, 4L, 7L);
    }

    @Test
    void splitsThatHoldANumberTwiceOrNotAtAllAreRefused() {
        assertThatThrownBy(
                        () ->
                                GeneratorProgress.emitted(
                                        List.of(
                                                new GeneratorSplit(0, 2, 0),
                                                new GeneratorSplit(4, 2, 0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both hold 0");
        assertThatThrownBy(() -> GeneratorProgress.emitted(List.of(new GeneratorSplit(0, 2, 0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds sequence number 1");
    }

    @Test
    void emittedMatchesWhatAReaderEmitsAtAnyPoint() throws Exception {
        long start = System.currentTimeMillis() - HOUR_MILLIS;
        List<Object> splits = new ArrayList<>();
        for (List<Object> share :
                source.assignSplits(List.of(new GeneratorSplit(3, 1, start)), 2)) {
            splits.addAll(share);
        }
        SourceReader<Long> reader = source.restoreReader(context(), splits);
        List<Long> out = new ArrayList<>(LongStream.range(0, 3).boxed().toList());
        for (int poll = 1; poll <= 9; poll++) {
            reader.poll(collector(out), 7 * poll);
            @SuppressWarnings("unchecked")
            List<GeneratorSplit> positions = (List<GeneratorSplit>) reader.snapshotSplits();
            assertThat(GeneratorProgress.emitted(positions).boxed().toList())
                    .as("after poll " + poll)
                    .containsExactlyElementsOf(out.stream().sorted().toList());
        }
    }

    private static Collector<Long> collector(List<Long> out) {
        return out::add;
    }

    private static RuntimeContext context() {
        return new RuntimeContext() {
            @Override
            public String jobName() {
                return "generator";
            }

            @Override
            public String operatorId() {
                return "source";
            }

            @Override
            public int instanceIndex() {
                return 0;
            }

            @Override
            public int parallelism() {
                return 1;
            }

            @Override
            public int keyGroups() {
                return 128;
            }
        };
    }
}
