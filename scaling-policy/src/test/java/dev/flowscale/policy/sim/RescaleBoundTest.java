package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RescaleBoundTest {

    private static final Duration RUN = Duration.ofMinutes(30);

    @Test
    void aConstantLoadStartedAtItsOptimumNeedsNoRescale() {
        assertThat(RescaleBound.leastRescales(atStart(RateProfile.constant(500)), RUN)).isZero();
    }

    @Test
    void anOverProvisionedStartNeedsOneRescaleDown() {
        Scenario start = atStart(RateProfile.constant(500)).startingAt(20);

        assertThat(RescaleBound.leastRescales(start, RUN)).isEqualTo(1);
    }

    @Test
    void aStepUpThatStaysNeedsOneRescale() {
        Scenario up = atStart(RateProfile.constant(500).then(600, 1_500));

        assertThat(RescaleBound.leastRescales(up, RUN)).isEqualTo(1);
    }

    @Test
    void aStepUpAndBackDownNeedsTwoRescales() {
        Scenario step = atStart(RateProfile.constant(500).then(600, 1_500).then(1_200, 500));

        assertThat(RescaleBound.leastRescales(step, RUN)).isEqualTo(2);
    }

    @Test
    void aStepDownThenUpToTheStartNeedsNoRescaleAsTheStartCoversBoth() {
        Scenario dip = atStart(RateProfile.constant(1_500).then(600, 500).then(1_200, 1_500));

        assertThat(RescaleBound.leastRescales(dip, RUN)).isZero();
    }

    /** The word count of the trace comparison under {@code rate}, started at its optimum. */
    private static Scenario atStart(RateProfile rate) {
        return PredictiveComparison.wordCount("bound", rate);
    }
}
