package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.operator.loop.SpecSettings;
import org.junit.jupiter.api.Test;

class AutoscalerDefaultsTest {
    @Test
    void aSettingTheJobLeavesOutTakesTheOperatorsDefaultElseTheBuiltInOne() {
        AutoscalerDefaults defaults =
                AutoscalerDefaults.fromJson("{\"mode\":\"auto\",\"maxParallelism\":12}");
        AutoscalerSpec job = new AutoscalerSpec();
        job.maxParallelism = 6;

        AutoscalerSpec resolved = defaults.resolve(job);

        assertThat(resolved.mode).isEqualTo(AutoscalerMode.AUTO);
        assertThat(resolved.maxParallelism).isEqualTo(6);
        assertThat(resolved.policyInterval).isEqualTo("30s");
        assertThat(resolved.targetUtilization).isEqualTo(1.0);
        assertThat(resolved.keyGroupAlignment).isFalse();
        assertThat(job.mode).as("the job's own object is not changed").isNull();
    }

    @Test
    void noDefaultsMeansTheBuiltInOnes() {
        AutoscalerSpec resolved = AutoscalerDefaults.fromJson(" ").resolve(null);
        assertThat(resolved.mode).isEqualTo(AutoscalerMode.RECOMMEND);
        assertThat(resolved.minParallelism).isEqualTo(1);
        assertThat(resolved.maxParallelism).isEqualTo(32);
        assertThat(resolved.scaleDownDelay).isEqualTo("5m");
    }

    @Test
    void everySettingOfTheTableIsAFieldOfTheSpecAndEveryFieldASetting() {
        java.util.Set<String> fields =
                java.util.Arrays.stream(dev.flowscale.operator.api.AutoscalerSpec.class.getFields())
                        .map(java.lang.reflect.Field::getName)
                        .collect(java.util.stream.Collectors.toSet());
        assertThat(fields)
                .containsExactlyInAnyOrderElementsOf(
                        java.util.Arrays.stream(dev.flowscale.policy.settings.Setting.values())
                                .map(dev.flowscale.policy.settings.Setting::field)
                                .toList());
    }

    @Test
    void theBuiltInDefaultsAreTheTablesClusterColumnAndBuildTheSamePolicyAsTheTable() {
        dev.flowscale.operator.api.AutoscalerSpec builtIn =
                AutoscalerDefaults.builtIn().resolve(null);

        assertThat(SpecSettings.values(builtIn).policy())
                .isEqualTo(dev.flowscale.policy.settings.SettingValues.defaults().policy());
        assertThat(builtIn.catchUp).isEqualTo("5m");
        assertThat(builtIn.skewCorrection).isTrue();
    }

    @Test
    void anUnknownFieldOrABadValueNamesTheVariableAndTheField() {
        assertThatThrownBy(() -> AutoscalerDefaults.fromJson("{\"maxParalelism\":4}"))
                .hasMessageContaining(AutoscalerDefaults.ENV)
                .hasMessageContaining("maxParalelism");
        assertThatThrownBy(() -> AutoscalerDefaults.fromJson("{\"warmUp\":\"a minute\"}"))
                .hasMessageContaining(AutoscalerDefaults.ENV + ".warmUp")
                .hasMessageContaining("e.g. 30s");
        assertThatThrownBy(() -> AutoscalerDefaults.fromJson("{\"minParallelism\":40}"))
                .hasMessageContaining(
                        AutoscalerDefaults.ENV
                                + ".minParallelism 40 is above "
                                + AutoscalerDefaults.ENV
                                + ".maxParallelism 32");
        assertThatThrownBy(() -> AutoscalerDefaults.fromJson("{\"mode\":\"fast\"}"))
                .hasMessageContaining(AutoscalerDefaults.ENV)
                .hasMessageContaining("fast");
    }

    @Test
    void watchedNamespacesAreACommaSeparatedListOfNamesAndEmptyMeansAll() {
        assertThat(FlowscaleOperator.watchedNamespaces(null)).isEmpty();
        assertThat(FlowscaleOperator.watchedNamespaces("")).isEmpty();
        assertThat(FlowscaleOperator.watchedNamespaces("team-b, team-a"))
                .containsExactly("team-a", "team-b");
        assertThatThrownBy(() -> FlowscaleOperator.watchedNamespaces("team-a;team-b"))
                .hasMessageContaining(FlowscaleOperator.WATCH_NAMESPACES_ENV)
                .hasMessageContaining("team-a;team-b");
    }
}
