package dev.flowscale.engine.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.testing.HarnessSnapshot;
import dev.flowscale.engine.testing.KeyedFunctionHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Windows against hand-computed results; a record is {key, value} at an event time. */
class WindowOperatorTest {
    private static final OutputTag<long[]> LATE = new OutputTag<>("late", long[].class);

    private static KeyedFunctionHarness<Long, long[], String> sums(
            WindowAssigner assigner, long lateness) throws Exception {
        var spec =
                new WindowOperator.Spec<Long, long[], Long, Long, String>(
                        assigner,
                        Aggregates.sumOf((long[] r) -> r[1]),
                        Long.class,
                        (key, w, sum, out) ->
                                out.collect(key + " [" + w.start() + "," + w.end() + ") = " + sum),
                        lateness,
                        LATE);
        return KeyedFunctionHarness.of(() -> new WindowOperator<>(spec), (long[] r) -> r[0]).open();
    }

    private static long[] r(long key, long value) {
        return new long[] {key, value};
    }

    @Test
    void tumblingWindowsFireInOrderOnceTheWatermarkPassesTheirEndWhateverTheRecordOrder()
            throws Exception {
        try (var h = sums(WindowAssigner.tumbling(Duration.ofMillis(10)), 0)) {
            h.processElement(r(1, 1), 12);
            h.processElement(r(1, 2), 3);
            h.processElement(r(2, 4), 9);
            h.processElement(r(1, 8), 10);
            h.processElement(r(1, 16), 0);
            h.processWatermark(8);
            assertThat(h.takeOutput()).isEmpty();
            h.processWatermark(9);
            assertThat(h.takeOutput()).containsExactlyInAnyOrder("1 [0,10) = 18", "2 [0,10) = 4");
            h.processWatermark(100);
            assertThat(h.takeOutput()).containsExactly("1 [10,20) = 9");
        }
    }

    @Test
    void aSlidingWindowRecordCountsInEveryWindowThatCoversIt() throws Exception {
        try (var h = sums(WindowAssigner.sliding(Duration.ofMillis(10), Duration.ofMillis(5)), 0)) {
            h.processElement(r(1, 1), 7);
            h.processElement(r(1, 10), 12);
            h.processElement(r(1, 100), 4);
            h.processWatermark(1_000);
            assertThat(h.takeOutput())
                    .containsExactly(
                            "1 [-5,5) = 100", "1 [0,10) = 101", "1 [5,15) = 11", "1 [10,20) = 10");
        }
    }

    @Test
    void sessionsMergeWhenARecordBridgesTheGapBetweenThem() throws Exception {
        try (var h = sums(WindowAssigner.session(Duration.ofMillis(5)), 0)) {
            h.processElement(r(1, 1), 1);
            h.processElement(r(1, 2), 5);
            h.processElement(r(1, 4), 20);
            h.processElement(r(1, 8), 12);
            h.processElement(r(2, 1000), 3);
            h.processWatermark(8);
            assertThat(h.takeOutput()).containsExactly("2 [3,8) = 1000");
            h.processElement(r(1, 16), 9);
            h.processWatermark(16);
            assertThat(h.takeOutput()).containsExactly("1 [1,17) = 27");
            h.processWatermark(24);
            assertThat(h.takeOutput()).containsExactly("1 [20,25) = 4");
        }
    }

    @Test
    void aLateRecordWithinTheAllowedLatenessFiresItsWindowAgainAndLaterOnesGoToTheSideOutput()
            throws Exception {
        try (var h = sums(WindowAssigner.tumbling(Duration.ofMillis(10)), 5)) {
            h.processElement(r(1, 1), 2);
            h.processWatermark(9);
            assertThat(h.takeOutput()).containsExactly("1 [0,10) = 1");
            h.processElement(r(1, 2), 4);
            assertThat(h.takeOutput()).containsExactly("1 [0,10) = 3");
            h.processWatermark(14);
            h.processElement(r(1, 4), 8);
            assertThat(h.takeOutput()).isEmpty();
            assertThat(h.sideOutput(LATE))
                    .singleElement()
                    .satisfies(late -> assertThat(late).containsExactly(1, 4));
        }
    }

    @Test
    void aTimerFiresTheSlidingWindowEndingThereAndDropsTheOneWhoseLatenessEndsThere()
            throws Exception {
        try (var h = sums(WindowAssigner.sliding(Duration.ofMillis(10), Duration.ofMillis(5)), 5)) {
            h.processElement(r(1, 1), 7); // in [0,10) and [5,15)
            h.processWatermark(9);
            assertThat(h.takeOutput()).containsExactly("1 [0,10) = 1");
            // 14 is [5,15)'s last timestamp and the end of [0,10)'s lateness
            h.processWatermark(14);
            assertThat(h.takeOutput()).containsExactly("1 [5,15) = 1");
            h.processElement(r(1, 2), 8);
            assertThat(h.takeOutput()).containsExactly("1 [5,15) = 3");
            assertThat(h.sideOutput(LATE)).isEmpty();
            h.processWatermark(19);
            h.processElement(r(1, 4), 9);
            assertThat(h.takeOutput()).isEmpty();
            assertThat(h.sideOutput(LATE)).hasSize(1);
        }
    }

    @Test
    void aSessionFiresAtItsEndAndALateRecordWithinLatenessFiresItAgain() throws Exception {
        try (var h = sums(WindowAssigner.session(Duration.ofMillis(5)), 10)) {
            h.processElement(r(1, 1), 1);
            h.processElement(r(1, 2), 20);
            h.processWatermark(5);
            assertThat(h.takeOutput()).containsExactly("1 [1,6) = 1");
            h.processElement(r(1, 4), 1);
            assertThat(h.takeOutput()).containsExactly("1 [1,6) = 5");
            h.processWatermark(100);
            assertThat(h.takeOutput()).containsExactly("1 [20,25) = 2");
            h.processElement(r(1, 8), 2);
            assertThat(h.takeOutput()).isEmpty();
            assertThat(h.sideOutput(LATE)).hasSize(1);
        }
    }

    @Test
    void withoutLatenessARecordBehindTheWatermarkIsLateAndOpenWindowsSurviveASnapshot()
            throws Exception {
        HarnessSnapshot snapshot;
        try (var h = sums(WindowAssigner.tumbling(Duration.ofMillis(10)), 0)) {
            h.processElement(r(1, 1), 15);
            h.processWatermark(10);
            h.processElement(r(1, 2), 9);
            assertThat(h.sideOutput(LATE)).hasSize(1);
            h.processElement(r(1, 4), 11);
            snapshot = h.snapshot();
        }
        var spec =
                new WindowOperator.Spec<Long, long[], Long, Long, String>(
                        WindowAssigner.tumbling(Duration.ofMillis(10)),
                        Aggregates.sumOf((long[] r) -> r[1]),
                        Long.class,
                        (key, w, sum, out) -> out.collect(key + "@" + w.start() + "=" + sum),
                        0,
                        null);
        try (var restored =
                KeyedFunctionHarness.of(() -> new WindowOperator<>(spec), (long[] r) -> r[0])
                        .restore(snapshot)) {
            restored.processWatermark(19);
            assertThat(restored.takeOutput()).containsExactly("1@10=5");
        }
    }

    @Test
    void aProcessWindowFunctionSeesEveryRecordOfTheWindowAlsoAfterARestore() throws Exception {
        WindowFunction<List<Long>, String, Long> all =
                (key, w, records, out) -> out.collect(key + " " + w.start() + " " + records);
        var setup =
                KeyedFunctionHarness.of(
                        () ->
                                WindowOperator.allRecords(
                                        WindowAssigner.tumbling(Duration.ofMillis(10)),
                                        Long.class,
                                        all,
                                        0,
                                        null),
                        (Long x) -> x % 2);
        HarnessSnapshot snapshot;
        try (var h = setup.open()) {
            h.processElement(2L, 1);
            h.processElement(4L, 2);
            snapshot = h.snapshot();
        }
        try (var h = setup.restore(snapshot)) {
            h.processElement(6L, 3);
            h.processWatermark(9);
            assertThat(h.takeOutput()).containsExactly("0 0 [2, 4, 6]");
        }
    }
}
