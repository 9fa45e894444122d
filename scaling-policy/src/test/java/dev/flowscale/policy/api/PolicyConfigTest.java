package dev.flowscale.policy.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PolicyConfigTest {

    private static PolicyConfig everySettingChanged() {
        return PolicyConfig.builder()
                .targetUtilization(0.7)
                .sourceTargetRate("src", 1000)
                .catchUpDuration(Duration.ofMinutes(2))
                .targetMaxLag(Duration.ofSeconds(20))
                .noiseTolerance(0.03)
                .jobBounds(2, 40)
                .operatorBounds("map", 1, 8)
                .alignToKeyGroups(0.5)
                .deadBand(0.1)
                .scaleDownDelay(Duration.ofMinutes(10))
                .scaleDownInterval(Duration.ofMinutes(30))
                .savingsHorizon(Duration.ofHours(2))
                .loadChange(0.2)
                .expectedRescaleDuration(Duration.ofSeconds(45))
                .downtimePercentile(0.95)
                .maxRescalesPerHour(4)
                .warmUp(Duration.ofSeconds(90))
                .maxMetricsAge(Duration.ofMinutes(1))
                .confirmNeed(true)
                .coreWaitCorrection(true)
                .skewCorrection(true)
                .learnScalability(true)
                .scalabilityPrior(0.8)
                .predictive(true)
                .forecastPeriod(Duration.ofHours(24))
                .build();
    }

    @Test
    void eachSettingIsHeldByTheGroupThatItGoverns() {
        PolicyConfig config = everySettingChanged();

        assertThat(config.targets())
                .isEqualTo(
                        new PolicyConfig.Targets(
                                0.7,
                                java.util.Map.of("src", 1000.0),
                                Duration.ofMinutes(2),
                                Duration.ofSeconds(20),
                                0.03));
        assertThat(config.bounds().operatorBounds())
                .containsEntry("map", new ParallelismBounds(1, 8));
        assertThat(config.bounds().alignmentMaxIncrease()).isEqualTo(0.5);
        assertThat(config.scaleDown())
                .isEqualTo(
                        new PolicyConfig.ScaleDown(
                                0.1,
                                Duration.ofMinutes(10),
                                Duration.ofMinutes(30),
                                Duration.ofHours(2),
                                0.2));
        assertThat(config.rescaleCost())
                .isEqualTo(new PolicyConfig.RescaleCost(Duration.ofSeconds(45), 0.95, 4));
        assertThat(config.guards())
                .isEqualTo(
                        new PolicyConfig.Guards(
                                Duration.ofSeconds(90), Duration.ofMinutes(1), true, true));
        assertThat(config.model())
                .isEqualTo(new PolicyConfig.Model(true, true, 0.8, true, Duration.ofHours(24)));
    }

    @Test
    void eachSettingStillReadsByItsOwnName() {
        PolicyConfig config = everySettingChanged();

        assertThat(config.targetUtilization()).isEqualTo(0.7);
        assertThat(config.boundsOf("map")).isEqualTo(new ParallelismBounds(1, 8));
        assertThat(config.boundsOf("other")).isEqualTo(new ParallelismBounds(2, 40));
        assertThat(config.deadBand()).isEqualTo(0.1);
        assertThat(config.maxRescalesPerHour()).isEqualTo(4);
        assertThat(config.confirmNeed()).isTrue();
        assertThat(config.forecastPeriod()).isEqualTo(Duration.ofHours(24));
        assertThat(config.catchUpSeconds()).isEqualTo(120.0);
    }

    @Test
    void toBuilderRebuildsTheSameSettings() {
        PolicyConfig config = everySettingChanged();

        assertThat(config.toBuilder().build()).isEqualTo(config);
        assertThat(PolicyConfig.exactDs2().toBuilder().build()).isEqualTo(PolicyConfig.exactDs2());
    }

    @Test
    void aGroupRejectsABadValueNamingTheSettingAndTheFix() {
        assertThatThrownBy(() -> PolicyConfig.builder().loadChange(1.5).build())
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("policy loadChange is 1.5; use a fraction in (0, 1)");
        assertThatThrownBy(() -> new PolicyConfig.RescaleCost(Duration.ofSeconds(1), 0.9, -1))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("maxRescalesPerHour is -1; use 0 for no budget");
    }
}
