package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TraceComparisonTest {

    /** Four periods of the sine: the cheapest configuration of the comparison. */
    @Test
    void onTheSineAtTwoSecondsFlowscaleMakesAtMostHalfTheRescalesOfExactDs2WithNoMoreBacklog() {
        TraceComparison.Row row =
                TraceComparison.row("sine", Duration.ofSeconds(2), Duration.ofHours(2));

        assertMeetsGoal(row);
    }

    /**
     * The daily trace's morning ramp keeps rising while a scale-up is down and warming up: sized
     * for the rate when the next rescale could take effect, each ramp needs fewer scale-ups.
     */
    @Test
    void onTheDailyTraceAtSixtySecondsFlowscaleMakesAtMostHalfTheRescalesOfExactDs2() {
        assertMeetsGoal(TraceComparison.row("daily", Duration.ofSeconds(60)));
    }

    private static void assertMeetsGoal(TraceComparison.Row row) {
        assertThat(row.ds2().rescales()).as("exact DS2 rescales").isGreaterThan(0);
        assertThat(2 * row.flowscale().rescales())
                .as("twice flowscale's rescales: %s", row)
                .isLessThanOrEqualTo(row.ds2().rescales());
        assertThat(row.flowscale().backlogRecordSeconds())
                .as("flowscale's backlog (record-s): %s", row)
                .isLessThanOrEqualTo(row.ds2().backlogRecordSeconds());
        assertThat(row.meetsGoal()).isTrue();
    }

    @Test
    void aRowMissesTheGoalWithMoreThanHalfTheRescalesOrMoreBacklog() {
        TraceComparison.Run ds2 = new TraceComparison.Run(10, 1_000, 0, 0, 4);

        assertThat(row(new TraceComparison.Run(10, 1_000, 0, 0, 2), ds2).meetsGoal()).isTrue();
        assertThat(row(new TraceComparison.Run(10, 1_000, 0, 0, 3), ds2).meetsGoal()).isFalse();
        assertThat(row(new TraceComparison.Run(10, 1_001, 0, 0, 1), ds2).meetsGoal()).isFalse();
    }

    /**
     * On the up-and-down step, any policy that sustains the load and ends minimal rescales twice,
     * more than half of exact DS2's three: the row says the goal is out of reach, by that bound.
     */
    @Test
    void onTheStepTheGoalIsOutOfReachByTheComputedBound() {
        TraceComparison.Row row = TraceComparison.row("step", Duration.ofSeconds(2));

        assertThat(row.leastRescales()).isEqualTo(2);
        assertThat(row.ds2().rescales()).as("exact DS2: %s", row).isEqualTo(3);
        assertThat(row.goalReachable()).isFalse();
        assertThat(row.flowscale().backlogRecordSeconds())
                .isLessThan(row.ds2().backlogRecordSeconds());
    }

    private static TraceComparison.Row row(TraceComparison.Run flowscale, TraceComparison.Run ds2) {
        return new TraceComparison.Row("sine", Duration.ofSeconds(2), flowscale, ds2, 2);
    }
}
