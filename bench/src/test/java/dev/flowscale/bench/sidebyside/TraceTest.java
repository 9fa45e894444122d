package dev.flowscale.bench.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceTest {
    // 300 sentences/s: Split 300 * 8 ms = 2.4 busy s/s -> 3; Count 1500 words/s * 3 ms = 4.5 -> 5
    private static final SideBySideLoad LOAD = new SideBySideLoad(300, 8_000, 3_000);

    @Test
    void theOptimumIsEachOperatorsBusyTimePerSecondRoundedUp() {
        assertThat(LOAD.optimum()).isEqualTo(Map.of("Split", 3, "Count", 5));
        assertThat(LOAD.optimumInstances()).isEqualTo(9);
    }

    @Test
    void aTraceCountsRescalesAcrossRestartsAndTimesTheSustainingConfigurationFromWhenItStays() {
        Trace trace = new Trace(LOAD);
        trace.add(new Trace.Point(0, config(1, 1, 1), 0));
        trace.add(new Trace.Point(60, config(1, 3, 5), 3_000));
        trace.add(new Trace.Point(120, null, 4_000));
        trace.add(new Trace.Point(180, config(1, 2, 5), 6_000));
        trace.add(new Trace.Point(240, config(1, 4, 6), 1_500));
        trace.add(new Trace.Point(300, config(1, 4, 6), 0));

        assertThat(trace.rescales()).isEqualTo(3);
        assertThat(trace.path()).isEqualTo("1/1/1 -> 1/3/5 -> 1/2/5 -> 1/4/6");
        assertThat(trace.secondsToSustaining()).isEqualTo(240);
        // 1/4/6 is 2 instances over 1/3/5 for the last minute; 1/3/5 itself is the optimum
        assertThat(trace.overProvisionedInstanceMinutes()).isEqualTo(2.0);
        assertThat(trace.maxBacklogSeconds()).isEqualTo(6_000 / 1_500.0);
        assertThat(trace.finalBacklogSeconds()).isZero();
    }

    @Test
    void aTraceCutAtAMomentHasTheFiguresOfTheRunUpToThen() {
        Trace trace = new Trace(LOAD);
        trace.add(new Trace.Point(0, config(1, 1, 1), 0));
        trace.add(new Trace.Point(60, config(1, 4, 6), 3_000));
        trace.add(new Trace.Point(120, config(1, 3, 5), 1_500));

        Trace cut = trace.until(60);

        assertThat(cut.path()).isEqualTo("1/1/1 -> 1/4/6");
        assertThat(cut.secondsToSustaining()).isEqualTo(60);
        assertThat(cut.finalBacklogSeconds()).isEqualTo(2.0);
        assertThat(trace.secondsToSustaining()).isEqualTo(60);
        assertThat(trace.finalBacklogSeconds()).isEqualTo(1.0);
    }

    private static Map<String, Integer> config(int sentences, int split, int count) {
        return Map.of("Sentences", sentences, "Split", split, "Count", count);
    }
}
