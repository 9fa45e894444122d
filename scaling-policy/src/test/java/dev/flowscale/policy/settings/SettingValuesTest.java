package dev.flowscale.policy.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.common.DurationText;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingValuesTest {

    @Test
    void theDefaultsOfTheTableBuildThePolicy() {
        PolicyConfig p = SettingValues.defaults().policy();

        assertThat(p.catchUpDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(p.expectedRescaleDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.downtimePercentile()).isEqualTo(0.9);
        assertThat(p.scaleDownDelay()).isEqualTo(Duration.ofMinutes(5));
        assertThat(p.maxRescalesPerHour()).isEqualTo(6);
        assertThat(p.noiseTolerance()).isEqualTo(0.02);
        assertThat(p.confirmNeed()).isTrue();
        assertThat(p.maxMetricsAge()).isEqualTo(Duration.ofSeconds(90));
        assertThat(p.jobBounds().max()).isEqualTo(32);
        assertThat(SettingValues.defaults().mode()).isEqualTo(Mode.RECOMMEND);
    }

    @Test
    void theCoreWaitCorrectionIsOnInEveryProfileAndCanBeTurnedOff() {
        for (Setting.Profile profile : Setting.Profile.values()) {
            assertThat(SettingValues.defaults(profile).policy().coreWaitCorrection())
                    .as("core-wait correction in the %s defaults", profile)
                    .isTrue();
        }
        SettingValues off =
                SettingValues.resolve(
                        Map.of(Setting.CORE_WAIT_CORRECTION, "false"), "--", Setting.Profile.LOCAL);
        assertThat(off.policy().coreWaitCorrection()).isFalse();
        assertThat(PolicyConfig.exactDs2().coreWaitCorrection()).as("the paper's DS2").isFalse();
    }

    @Test
    void theLocalCatchUpSpansTenExpectedDowntimesWhenThatIsLongerThanItsDefault() {
        SettingValues quick = SettingValues.defaults(Setting.Profile.LOCAL);
        SettingValues emulated =
                SettingValues.resolve(
                        Map.of(Setting.EXPECTED_DOWNTIME, "32s"), "--", Setting.Profile.LOCAL);
        SettingValues given =
                SettingValues.resolve(
                        Map.of(Setting.EXPECTED_DOWNTIME, "32s", Setting.CATCH_UP, "60s"),
                        "--",
                        Setting.Profile.LOCAL);

        assertThat(quick.policy().catchUpDuration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(emulated.policy().catchUpDuration()).isEqualTo(Duration.ofSeconds(320));
        assertThat(emulated.text(Setting.CATCH_UP)).isEqualTo("320s");
        assertThat(given.policy().catchUpDuration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(
                        SettingValues.resolve(
                                        Map.of(Setting.EXPECTED_DOWNTIME, "32s"),
                                        "",
                                        Setting.Profile.CLUSTER)
                                .policy()
                                .catchUpDuration())
                .isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void givenTextsWinOverTheDefaults() {
        SettingValues v =
                SettingValues.resolve(
                        Map.of(
                                Setting.MODE,
                                "auto",
                                Setting.CATCH_UP,
                                "90s",
                                Setting.SKEW_CORRECTION,
                                "true",
                                Setting.KEY_GROUP_ALIGNMENT,
                                "true"),
                        "--");

        assertThat(v.mode()).isEqualTo(Mode.AUTO);
        assertThat(v.policy().catchUpDuration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(v.policy().skewCorrection()).isTrue();
        assertThat(v.policy().alignToKeyGroups()).isTrue();
    }

    @Test
    void everyWrongValueIsNamedWithTheCallersSpellingAndTheFix() {
        assertThatThrownBy(
                        () ->
                                SettingValues.resolve(
                                        Map.of(
                                                Setting.CATCH_UP,
                                                "5 minutes",
                                                Setting.TARGET_UTILIZATION,
                                                "1.5",
                                                Setting.MAX_RESCALES_PER_HOUR,
                                                "-1"),
                                        "spec.autoscaler."))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining(
                        "spec.autoscaler.catchUp is '5 minutes': write a number and a unit")
                .hasMessageContaining(
                        "spec.autoscaler.targetUtilization is '1.5': use a number from 0.1 to 1.0")
                .hasMessageContaining(
                        "spec.autoscaler.maxRescalesPerHour is '-1': use a whole number of at least 0");
        assertThatThrownBy(() -> SettingValues.resolve(Map.of(Setting.POLICY_INTERVAL, "0s"), "--"))
                .hasMessage("--policy-interval is '0s': use a duration above zero, e.g. 30s");
        assertThatThrownBy(() -> SettingValues.resolve(Map.of(Setting.MODE, "sometimes"), "--"))
                .hasMessage("--mode is 'sometimes': use auto, recommend or off");
    }

    @Test
    void theMinimumParallelismMayNotExceedTheMaximum() {
        assertThatThrownBy(
                        () ->
                                SettingValues.resolve(
                                        Map.of(
                                                Setting.MIN_PARALLELISM,
                                                "8",
                                                Setting.MAX_PARALLELISM,
                                                "4"),
                                        "--"))
                .hasMessage(
                        "--min-parallelism 8 is above --max-parallelism 4; lower it or raise the maximum");
    }

    @Test
    void namesFollowOneSpellingPerSurface() {
        assertThat(Setting.MAX_RESCALES_PER_HOUR.field()).isEqualTo("maxRescalesPerHour");
        assertThat(Setting.MAX_RESCALES_PER_HOUR.option()).isEqualTo("max-rescales-per-hour");
        assertThat(Setting.named("scale-down-delay")).contains(Setting.SCALE_DOWN_DELAY);
        assertThat(Setting.named("scaleDownDelay")).contains(Setting.SCALE_DOWN_DELAY);
        assertThat(Setting.named("keyGroups")).isEmpty();
    }

    @Test
    void aDurationSettingIsReadInTheOneDurationGrammarAndItsErrorNamesTheOption() {
        SettingValues values =
                SettingValues.resolve(
                        Map.of(Setting.WARM_UP, "1.5s", Setting.CATCH_UP, "200ms"),
                        "option --",
                        Setting.Profile.LOCAL);
        assertThat(values.duration(Setting.WARM_UP)).isEqualTo(Duration.ofMillis(1500));
        assertThat(values.duration(Setting.CATCH_UP)).isEqualTo(Duration.ofMillis(200));
        assertThatThrownBy(
                        () ->
                                SettingValues.resolve(
                                        Map.of(Setting.CATCH_UP, "1e400s"),
                                        "option --",
                                        Setting.Profile.LOCAL))
                .isInstanceOf(PolicyException.class)
                .hasMessage("option --catch-up is '1e400s': write " + DurationText.FORM);
    }
}
