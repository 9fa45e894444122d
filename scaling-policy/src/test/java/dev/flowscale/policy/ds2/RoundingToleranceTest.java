package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.PolicyConfig;
import org.junit.jupiter.api.Test;

class RoundingToleranceTest {
    private static Ds2Formula.Estimate estimate(double target, double capacity) {
        return new Ds2Formula.Estimate("count", target, capacity, 0);
    }

    @Test
    void aRatioJustAboveAWholeNumberRoundsDownWithinTheTolerance() {
        // the DS2 paper's count operator: 2000 words/s at 100 per instance, measured 0.9 % high
        assertThat(estimate(2018, 100).parallelism(1.0, 0.02)).isEqualTo(20);
        assertThat(estimate(2018, 100).parallelism(1.0, 0.005)).isEqualTo(21);
        assertThat(estimate(2018, 100).parallelism(1.0)).isEqualTo(21);
    }

    @Test
    void aRatioBeyondTheToleranceStillAddsAnInstance() {
        assertThat(estimate(2050, 100).parallelism(1.0, 0.02)).isEqualTo(21);
        assertThat(estimate(1000, 100).parallelism(1.0, 0.02)).isEqualTo(10);
        assertThat(estimate(1001, 100).parallelism(1.0, 0.0)).isEqualTo(11);
    }

    @Test
    void theToleranceMustBeASmallFraction() {
        assertThat(PolicyConfig.defaults().roundingTolerance()).isEqualTo(0.005);
        assertThatThrownBy(() -> PolicyConfig.builder().roundingTolerance(0.7).build())
                .isInstanceOf(PolicyException.class).hasMessageContaining("roundingTolerance");
        assertThatThrownBy(() -> PolicyConfig.builder().roundingTolerance(-0.1).build())
                .isInstanceOf(PolicyException.class);
    }
}
