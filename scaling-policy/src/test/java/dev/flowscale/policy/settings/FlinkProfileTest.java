package dev.flowscale.policy.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code attach --flink}'s defaults: a Flink rescale restarts the job from a checkpoint, so it
 * takes the cluster's column (the one a StreamJob targeting Flink gets), except that the command
 * runs in mode auto.
 */
class FlinkProfileTest {

    @Test
    void aFlinkJobGetsTheClusterDefaultsExceptModeAuto() {
        assertThat(Setting.MODE.defaultText(Setting.Profile.FLINK)).isEqualTo("auto");
        assertThat(Stream.of(Setting.values()).filter(s -> s != Setting.MODE))
                .allSatisfy(
                        s ->
                                assertThat(s.defaultText(Setting.Profile.FLINK))
                                        .as(s.field())
                                        .isEqualTo(s.defaultText(Setting.Profile.CLUSTER)));
        assertThat(Setting.SCALE_DOWN_DELAY.defaultText(Setting.Profile.FLINK))
                .isNotEqualTo(Setting.SCALE_DOWN_DELAY.defaultText(Setting.Profile.LOCAL));
    }
}
