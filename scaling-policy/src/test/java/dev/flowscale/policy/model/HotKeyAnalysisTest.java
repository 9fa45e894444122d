package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class HotKeyAnalysisTest {

    /** "count" whose instances all process 400 rec/s while busy and observed the given rates. */
    private static OperatorMetrics count(double... observed) {
        List<InstanceWindowRates> instances = new ArrayList<>();
        double total = 0;
        for (int i = 0; i < observed.length; i++) {
            instances.add(new InstanceWindowRates(i, 400, 400, observed[i], observed[i]));
            total += observed[i];
        }
        return OperatorMetrics.of(
                        "count",
                        observed.length,
                        400.0 * observed.length,
                        400.0 * observed.length,
                        total,
                        total)
                .withInstances(instances);
    }

    @Test
    void computesFlinkKeyGroupRanges() {
        assertThat(KeyGroupRange.of(0, 4, 128)).isEqualTo(new KeyGroupRange(0, 32));
        assertThat(KeyGroupRange.of(3, 4, 128)).isEqualTo(new KeyGroupRange(96, 128));
        // 128 over 3: [0, 43), [43, 86), [86, 128).
        assertThat(KeyGroupRange.of(1, 3, 128)).isEqualTo(new KeyGroupRange(43, 86));
        assertThat(KeyGroupRange.of(2, 3, 128)).isEqualTo(new KeyGroupRange(86, 128));
        assertThat(KeyGroupRange.largestShare(13, 128)).isEqualTo(10);
        assertThat(KeyGroupRange.of(1, 4, 128).intersect(KeyGroupRange.of(2, 8, 128)))
                .hasValue(new KeyGroupRange(32, 48));
    }

    @Test
    void keepsTheCurrentParallelismWhenItsBusiestInstanceJustKeepsUp() {
        // h = 0.4, s = (0.4·4 − 1)/3 = 0.2; at q = 4: 1000·(0.2 + 0.8·32/128) = 400 = capacity.
        HotKeyAnalysis.Assessment a =
                HotKeyAnalysis.assess(count(400, 200, 200, 200), 128, 1000, 1).orElseThrow();

        assertThat(a.hotInstance()).isEqualTo(0);
        assertThat(a.hotKeyGroups()).isEqualTo(new KeyGroupRange(0, 32));
        assertThat(a.hotSpotShare()).isCloseTo(0.2, offset(1e-12));
        assertThat(a.requiredParallelism()).hasValue(4);
    }

    @Test
    void sizesForTheHotSpotWhereDs2WouldSizeForTheAverage() {
        // 1500·(0.2 + 0.8·⌈128/q⌉/128) ≤ 400 needs ⌈128/q⌉ ≤ 10.67: q = 12 gives 11 groups (403.1),
        // q = 13 gives 10 (393.75).
        // Linear DS2 says ⌈1500/400⌉ = 4.
        HotKeyAnalysis.Assessment a =
                HotKeyAnalysis.assess(count(400, 200, 200, 200), 128, 1500, 1).orElseThrow();

        assertThat(a.requiredParallelism()).hasValue(13);
        assertThat(a.moreInstancesHelp()).isTrue();
        assertThat(a.reason())
                .contains("hottest instance 0 of 4 (key groups [0, 32)) takes 40 % of the input")
                .contains("parallelism 13");
    }

    @Test
    void saysMoreInstancesWillNotHelpAndNamesTheHotKeyGroups() {
        // The hot spot alone: 2500·(0.2 + 0.8/128) = 515.6 rec/s > 400.
        HotKeyAnalysis.Assessment a =
                HotKeyAnalysis.assess(count(200, 200, 400, 200), 128, 2500, 1).orElseThrow();

        assertThat(a.requiredParallelism()).isEqualTo(OptionalInt.empty());
        assertThat(a.moreInstancesHelp()).isFalse();
        assertThat(a.reason())
                .contains("hot key group alone must take 515.6 rec/s")
                .contains("more instances will not help (hot key groups among [64, 96))");
    }

    @Test
    void plansForTheTargetUtilization() {
        // Capacity 400·0.8 = 320: 1000·(0.2 + 0.8·⌈128/q⌉/128) ≤ 320 needs ⌈128/q⌉ ≤ 19.2: q = 7
        // (19 groups).
        assertThat(
                        HotKeyAnalysis.assess(count(400, 200, 200, 200), 128, 1000, 0.8)
                                .orElseThrow()
                                .requiredParallelism())
                .hasValue(7);
    }

    @Test
    void ignoresAnEvenlyLoadedOperatorAndOneWithoutInstanceMetrics() {
        assertThat(HotKeyAnalysis.assess(count(250, 250, 250, 250), 128, 1000, 1)).isEmpty();
        assertThat(HotKeyAnalysis.assess(count(400, 380, 390, 395), 128, 1000, 1)).isEmpty();
        assertThat(
                        HotKeyAnalysis.assess(
                                OperatorMetrics.of("count", 4, 1600, 1600, 1000, 1000),
                                128,
                                1000,
                                1))
                .isEmpty();
    }

    @Test
    void rejectsAnEmptyKeyGroupRange() {
        assertThatThrownBy(() -> new KeyGroupRange(5, 5))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("[5, 5)");
    }
}
