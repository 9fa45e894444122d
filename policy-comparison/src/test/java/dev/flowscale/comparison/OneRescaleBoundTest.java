package dev.flowscale.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.sim.ScenarioSuite;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The word count needs 15 flatMap and 30 count instances at its peak (1,500 sentences/s, 100 and
 * 500 words/s per instance, 10 words a sentence); at 0.75× the criteria's optimum keeps the spare
 * to drain one downtime within the 300 s catch-up time.
 */
class OneRescaleBoundTest {

    @Test
    void aOneRescalePolicyHoldsThePeakConfigurationThroughTheFortyMinutesAtThreeQuarters() {
        // 60 s: the optimum at 0.75× carries 1.2 × 750 sentences/s: 9 flatMap, 18 count;
        // (15 - 9) + (30 - 18) = 18 instances for 40 minutes
        assertThat(
                        OneRescaleBound.instanceMinutes(
                                ScenarioSuite.wordCount(), Duration.ofSeconds(60)))
                .isEqualTo(18 * 40.0);
    }

    @Test
    void aShorterDowntimeLowersTheOptimumAndRaisesTheBound() {
        // 2 s: 750 × (1 + 2/300) = 755 sentences/s: 8 flatMap, 16 count; 7 + 14 = 21 instances
        assertThat(
                        OneRescaleBound.instanceMinutes(
                                ScenarioSuite.wordCount(), Duration.ofSeconds(2)))
                .isEqualTo(21 * 40.0);
    }
}
