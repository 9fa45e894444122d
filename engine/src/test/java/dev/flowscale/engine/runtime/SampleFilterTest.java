package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a chain sample keeps of a wait for a core: a sample of 100 µs whose longest stretch of one
 * operator's work is 40 µs.
 */
class SampleFilterTest {
    private final SampleFilter filter = new SampleFilter();

    @Test
    void aWaitThatFitsInTheLongestStretchIsTakenOffIt() {
        assertThat(filter.decide(20_000, 100_000, 40_000)).isEqualTo(20_000);
    }

    @Test
    void aWaitLongerThanTheLongestStretchDropsTheSample() {
        assertThat(filter.decide(60_000, 100_000, 40_000)).isEqualTo(-1);
    }

    @Test
    void aWaitOfAtMostTwoPercentIsLeftIn() {
        assertThat(filter.decide(2_000, 100_000, 40_000)).isZero();
    }

    @Test
    void afterSixteenDropsInARowOneSampleIsKeptWithoutItsLongestStretch() {
        for (int i = 1; i < SampleFilter.MAX_DROPPED; i++) {
            assertThat(filter.decide(60_000, 100_000, 40_000)).isEqualTo(-1);
        }
        assertThat(filter.decide(60_000, 100_000, 40_000)).isEqualTo(40_000);
    }
}
